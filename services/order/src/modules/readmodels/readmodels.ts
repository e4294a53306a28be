import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENTS, EVENT_DATA, type EventEnvelope } from '@dme/contracts';
import { qualified } from '@dme/platform';

/** Customers as the order service knows them, from identity's events. */
export async function applyIdentityEvent(em: EntityManager, event: EventEnvelope): Promise<void> {
  const t = qualified(em, 'customers');
  switch (event.type) {
    case EVENTS.identity.userRegistered:
    case EVENTS.identity.employeeCreated:
    case EVENTS.identity.userUpdated: {
      const u = EVENT_DATA[EVENTS.identity.userRegistered].parse(event.data);
      await em.execute(
        `insert into ${t} (id, id_number, username, first_name, middle_name, last_name, suffix, email, contact_number, user_type, status, updated_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now())
         on conflict (id) do update set id_number = excluded.id_number, username = excluded.username, first_name = excluded.first_name,
           middle_name = excluded.middle_name, last_name = excluded.last_name, suffix = excluded.suffix, email = excluded.email,
           contact_number = excluded.contact_number, user_type = excluded.user_type, status = excluded.status, updated_at = now()`,
        [u.id, u.idNumber, u.username, u.firstName, u.middleName, u.lastName, u.suffix, u.email, u.contactNumber, u.userType, u.status],
      );
      return;
    }
    case EVENTS.identity.userStatusChanged: {
      const d = EVENT_DATA[EVENTS.identity.userStatusChanged].parse(event.data);
      await em.execute(`update ${t} set status = ?, updated_at = now() where id = ?`, [d.status, d.userId]);
      return;
    }
    case EVENTS.identity.userDeleted: {
      const d = EVENT_DATA[EVENTS.identity.userDeleted].parse(event.data);
      await em.execute(`update ${t} set deleted = true, status = 'DEACTIVATED', updated_at = now() where id = ?`, [d.userId]);
      return;
    }
    default:
      return;
  }
}

/** Products with names, images and prices, from the catalog's events (for carts). */
export async function applyCatalogEvent(em: EntityManager, event: EventEnvelope): Promise<void> {
  const t = qualified(em, 'products');
  switch (event.type) {
    case EVENTS.catalog.productCreated:
    case EVENTS.catalog.productUpdated: {
      const p = EVENT_DATA[EVENTS.catalog.productCreated].parse(event.data);
      await em.execute(
        `insert into ${t} (id, name, brand, image, type, price, damage_charges, variants, archived, updated_at)
         values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, false, now())
         on conflict (id) do update set name = excluded.name, brand = excluded.brand, image = excluded.image, type = excluded.type,
           price = excluded.price, damage_charges = excluded.damage_charges, variants = excluded.variants, updated_at = now()`,
        [p.productId, p.name, p.brand, p.image, p.type, p.price, p.damageCharges, JSON.stringify(p.variants)],
      );
      return;
    }
    case EVENTS.catalog.productArchived: {
      const d = EVENT_DATA[EVENTS.catalog.productArchived].parse(event.data);
      await em.execute(`update ${t} set archived = true, updated_at = now() where id = ?`, [d.productId]);
      return;
    }
    case EVENTS.catalog.productDeleted: {
      const d = EVENT_DATA[EVENTS.catalog.productDeleted].parse(event.data);
      await em.execute(`delete from ${t} where id = ?`, [d.productId]);
      return;
    }
    default:
      return;
  }
}
