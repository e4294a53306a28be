/** A person's fields that pass every register rule (contracts tests; services use @dme/testing). */
export const PERSON = {
  firstName: 'Maria',
  lastName: 'Santos',
  birthDate: '1990-05-17',
  gender: 'FEMALE',
  contactNumber: '+63 917 555 0101',
  email: 'maria@example.com',
  address: '12 Rizal St',
  city: 'Makati',
  state: 'Metro Manila',
  zipcode: '121000',
  image: '/api/uploads/0123456789abcdef0123456789abcdef.png',
};
