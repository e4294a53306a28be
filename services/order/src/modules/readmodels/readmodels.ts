import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENTS, EVENT_DATA, type EventEnvelope } from '@dme/contracts';
import { qualified } from '@dme/platform';

/*
 * Read models apply an event only when it is newer than what they hold (DESIGN §7): events carry
 * their aggregate's version, and a delivery that is retried can arrive after newer events.
 */

const CUSTOMER_DATA = ['id_number', 'username', 'first_name', 'middle_name', 'last_name', 'suffix', 'email', 'contact_number', 'user_type'] as const;

/**
 * Customers as the order service knows them, from identity's events. A snapshot (registered,
 * created, updated) sets the data when it is newer than `version`, and the status when newer than
 * `status_version`; a status change or a deletion sets only the status (a row that does not exist
 * yet is started with empty data, filled by the snapshot when it arrives). Deletion is final.
 */
export async function applyIdentityEvent(em: EntityManager, event: EventEnvelope): Promise<void> {
  const t = qualified(em, 'customers');
  const v = event.version;
  switch (event.type) {
    case EVENTS.identity.userRegistered:
    case EVENTS.identity.employeeCreated:
    case EVENTS.identity.userUpdated: {
      const u = EVENT_DATA[EVENTS.identity.userRegistered].parse(event.data);
      const newer = (col: string) => `${col} = case when c.version < excluded.version then excluded.${col} else c.${col} end`;
      await em.execute(
        `insert into ${t} as c (id, ${CUSTOMER_DATA.join(', ')}, status, version, status_version, updated_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now())
         on conflict (id) do update set ${CUSTOMER_DATA.map(newer).join(', ')},
           status = case when c.status_version < excluded.status_version then excluded.status else c.status end,
           version = greatest(c.version, excluded.version),
           status_version = greatest(c.status_version, excluded.status_version),
           updated_at = now()
         where c.version < excluded.version or c.status_version < excluded.status_version`,
        [u.id, u.idNumber, u.username, u.firstName, u.middleName, u.lastName, u.suffix, u.email, u.contactNumber, u.userType, u.status, v, v],
      );
      return;
    }
    case EVENTS.identity.userStatusChanged: {
      const d = EVENT_DATA[EVENTS.identity.userStatusChanged].parse(event.data);
      await upsertCustomerStatus(em, d.userId, d.status, false, v);
      return;
    }
    case EVENTS.identity.userDeleted: {
      const d = EVENT_DATA[EVENTS.identity.userDeleted].parse(event.data);
      await upsertCustomerStatus(em, d.userId, 'DEACTIVATED', true, v);
      return;
    }
    default:
      return;
  }
}

async function upsertCustomerStatus(em: EntityManager, id: string, status: string, deleted: boolean, version: number): Promise<void> {
  const t = qualified(em, 'customers');
  // version 0: no snapshot yet, so the registration (version 1) still fills the data in.
  await em.execute(
    `insert into ${t} as c (id, ${CUSTOMER_DATA.join(', ')}, status, deleted, version, status_version, updated_at)
     values (?, ${CUSTOMER_DATA.map(() => `''`).join(', ')}, ?, ?, 0, ?, now())
     on conflict (id) do update set status = excluded.status, deleted = c.deleted or excluded.deleted,
       status_version = excluded.status_version, updated_at = now()
     where c.status_version < excluded.status_version`,
    [id, status, deleted, version],
  );
}

/**
 * Products with names, images and prices, from the catalog's events (for carts). A snapshot
 * (created, updated) applies when newer than `version`. Archiving and deleting are final in the
 * catalog, so their flags are only ever set, never cleared (a snapshot does not touch them):
 * an archived product keeps taking newer data (carts still show its name), a deleted one becomes
 * a tombstone (`deleted`, and `version` = the deletion's) that ignores every older event. Either
 * arriving before the product's creation starts a row with empty data.
 */
export async function applyCatalogEvent(em: EntityManager, event: EventEnvelope): Promise<void> {
  const t = qualified(em, 'products');
  const v = event.version;
  switch (event.type) {
    case EVENTS.catalog.productCreated:
    case EVENTS.catalog.productUpdated: {
      const p = EVENT_DATA[EVENTS.catalog.productCreated].parse(event.data);
      await em.execute(
        `insert into ${t} as p (id, name, brand, image, type, price, damage_charges, variants, archived, deleted, version, updated_at)
         values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, false, false, ?, now())
         on conflict (id) do update set name = excluded.name, brand = excluded.brand, image = excluded.image, type = excluded.type,
           price = excluded.price, damage_charges = excluded.damage_charges, variants = excluded.variants,
           version = excluded.version, updated_at = now()
         where p.version < excluded.version`,
        [p.productId, p.name, p.brand, p.image, p.type, p.price, p.damageCharges, JSON.stringify(p.variants), v],
      );
      return;
    }
    case EVENTS.catalog.productArchived: {
      const d = EVENT_DATA[EVENTS.catalog.productArchived].parse(event.data);
      await em.execute(
        `insert into ${t} as p (id, name, brand, image, type, price, damage_charges, variants, archived, deleted, version, updated_at)
         values (?, '', '', '', '', 0, 0, '[]'::jsonb, true, false, 0, now())
         on conflict (id) do update set archived = true, updated_at = now()
         where not p.archived`,
        [d.productId],
      );
      return;
    }
    case EVENTS.catalog.productDeleted: {
      const d = EVENT_DATA[EVENTS.catalog.productDeleted].parse(event.data);
      await em.execute(
        `insert into ${t} as p (id, name, brand, image, type, price, damage_charges, variants, archived, deleted, version, updated_at)
         values (?, '', '', '', '', 0, 0, '[]'::jsonb, false, true, ?, now())
         on conflict (id) do update set deleted = true, version = greatest(p.version, excluded.version), updated_at = now()
         where not p.deleted or p.version < excluded.version`,
        [d.productId, v],
      );
      return;
    }
    default:
      return;
  }
}
