import { useEffect } from 'react';
import { Col, Form, Input, Row, Select, type FormInstance } from 'antd';
import { ADDRESS_MAX, compareDates, CONFLICT_DISPLAY_MS, computeAge, GENDERS, isIsoDate, manilaDate, MESSAGES, ZIPCODE_MIN } from '@dme/contracts';
import { errorMessage, fieldErrors } from '@dme/api-client';
import { ImageUpload } from '@dme/ui';

export type PersonMessages = {
  firstName: string;
  lastName: string;
  birthDate: string;
  gender: string;
  contactNumber: string;
  email: string;
  address: string;
  city: string;
  state: string;
  zipcode: string;
  image: string;
};

const required = (message: string) => [{ required: true, whitespace: true, message }];

/**
 * The birth date's rules: required (the form's own message), a real calendar date, and not after
 * today in Manila. The age is computed from it, so this is where a missing or wrong age is fixed.
 */
export function birthDateRules(requiredMessage: string) {
  return [
    ...required(requiredMessage),
    {
      validator: (_rule: unknown, value: unknown) => {
        if (typeof value !== 'string' || value.trim() === '') return Promise.resolve();
        if (!isIsoDate(value)) return Promise.reject(new Error(MESSAGES.common.birthDateInvalid));
        if (compareDates(value, manilaDate()) > 0) return Promise.reject(new Error(MESSAGES.common.birthDateFuture));
        return Promise.resolve();
      },
    },
  ];
}

/**
 * The person fields shared by registration and the employee form (SPEC §5): age is read-only and
 * computed in whole years (today in Manila) from the birth date; it has no rule of its own, since
 * the user cannot type it: the birth date is what is validated. The age is never sent (the server
 * computes it). Address at most 12 characters; zipcode at least 6.
 */
export function PersonFields({ form, messages }: { form: FormInstance; messages: PersonMessages }) {
  const birthDate = Form.useWatch('birthDate', form) as string | undefined;
  useEffect(() => {
    form.setFieldValue('age', computeAge(birthDate));
  }, [birthDate, form]);

  return (
    <>
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Form.Item label="First Name" name="firstName" rules={required(messages.firstName)}>
            <Input autoComplete="given-name" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item label="Middle Name" name="middleName">
            <Input autoComplete="additional-name" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item label="Last Name" name="lastName" rules={required(messages.lastName)}>
            <Input autoComplete="family-name" />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} md={6}>
          <Form.Item label="Suffix" name="suffix">
            <Input placeholder="Jr., III" />
          </Form.Item>
        </Col>
        <Col xs={24} md={6}>
          <Form.Item label="Date of Birth" name="birthDate" rules={birthDateRules(messages.birthDate)}>
            <Input type="date" autoComplete="bday" max={manilaDate()} />
          </Form.Item>
        </Col>
        <Col xs={12} md={4}>
          {/* Read-only and computed: no rule, so never an error the user cannot fix. */}
          <Form.Item label="Age" name="age">
            <Input readOnly variant="filled" />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item label="Gender" name="gender" rules={[{ required: true, message: messages.gender }]}>
            <Select
              placeholder="Select"
              options={GENDERS.map((g) => ({ value: g, label: g === 'MALE' ? 'Male' : 'Female' }))}
            />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item label="Contact Number" name="contactNumber" rules={required(messages.contactNumber)}>
            <Input autoComplete="tel" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item label="Email" name="email" rules={required(messages.email)}>
            <Input type="email" autoComplete="email" />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} md={6}>
          <Form.Item
            label="Address"
            name="address"
            rules={[...required(messages.address), { max: ADDRESS_MAX, message: MESSAGES.common.addressMax }]}
          >
            <Input autoComplete="street-address" />
          </Form.Item>
        </Col>
        <Col xs={24} md={6}>
          <Form.Item label="City" name="city" rules={required(messages.city)}>
            <Input autoComplete="address-level2" />
          </Form.Item>
        </Col>
        <Col xs={24} md={6}>
          <Form.Item label="State" name="state" rules={required(messages.state)}>
            <Input autoComplete="address-level1" />
          </Form.Item>
        </Col>
        <Col xs={24} md={6}>
          <Form.Item
            label="Zipcode"
            name="zipcode"
            rules={[...required(messages.zipcode), { min: ZIPCODE_MIN, message: MESSAGES.common.zipcodeMin }]}
          >
            <Input autoComplete="postal-code" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item label="Profile Image" name="image" rules={[{ required: true, message: messages.image }]}>
        <ImageUpload />
      </Form.Item>
    </>
  );
}

export interface PersonValues {
  firstName: string;
  middleName?: string;
  lastName: string;
  suffix?: string;
  birthDate: string;
  gender: 'MALE' | 'FEMALE';
  contactNumber: string;
  email: string;
  address: string;
  city: string;
  state: string;
  zipcode: string;
  image: string;
}

/** What is sent: optional names as empty strings (SPEC §5); the age is never sent. */
export function personBody(v: PersonValues) {
  return {
    firstName: v.firstName,
    middleName: v.middleName ?? '',
    lastName: v.lastName,
    suffix: v.suffix ?? '',
    birthDate: v.birthDate,
    gender: v.gender,
    contactNumber: v.contactNumber,
    email: v.email,
    address: v.address,
    city: v.city,
    state: v.state,
    zipcode: v.zipcode,
    image: v.image,
  };
}

/**
 * A failed save of a person form: the server's field errors go on their fields, and the
 * notification `title` carries the server's message (SPEC §8). A 409 on creating a user (the
 * username is taken) shows that notification for about 500 ms (SPEC §7, §9); its message stays
 * on the Username field, where the server puts it, until the username is changed.
 */
export function showSaveError(
  form: FormInstance,
  notifyError: (title: string, description?: string, options?: { durationMs?: number }) => void,
  title: string,
  err: unknown,
): void {
  const fields = fieldErrors(err);
  if (fields.length) form.setFields(fields as never);
  const conflict = (err as { status?: unknown } | undefined)?.status === 409;
  notifyError(title, errorMessage(err), conflict ? { durationMs: CONFLICT_DISPLAY_MS } : undefined);
}
