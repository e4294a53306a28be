import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { CUSTODY_KIND_NAMES, type CustodyKind } from '@dme/contracts';
import { CSV_HEADER, custodyCsv, custodyEpcis } from './custody-export';
import type { CustodyRow } from './units.service';

/** GS1's EPCIS 2.0 JSON schema, kept in the repo with its source named (epcis/SOURCE.md). */
const schemaText = readFileSync(new URL('./epcis/EPCIS-JSON-Schema.json', import.meta.url), 'utf8');
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(JSON.parse(schemaText) as object);

const row = (kind: CustodyKind, over: Partial<CustodyRow> = {}): CustodyRow => ({
  id: '6f1c3a9e-2b7d-4c1e-9a55-0d3f7b2e8c41',
  serial_code: 'OXY-0000042',
  kind,
  at: '2026-11-28T01:30:00.000Z',
  by_name: 'wendy',
  status: null,
  bin_id: '0b7e8d0c-5e0a-4c5b-8f3e-4d2b1a9c7e60',
  bin_name: 'Shelf A',
  order_number: 'ORD-20261128-000042',
  party: 'Jose Rizal',
  condition: null,
  note: '',
  checklist: null,
  ...over,
});

describe('custody exports (issue 26)', () => {
  it('the schema is GS1\'s file as kept (its checksum is in SOURCE.md)', () => {
    expect(createHash('sha256').update(schemaText).digest('hex')).toBe('70b7ecb60eb605c6edd230761557763e4d470333510d28619291476de635bf20');
    expect(JSON.parse(schemaText).$id).toBe('https://gs1.github.io/EPCIS/EPCIS-JSON-Schema.json');
  });

  it('an EPCIS 2.0 document with an ObjectEvent for every kind of entry validates against GS1\'s schema', () => {
    const rows = CUSTODY_KIND_NAMES.map((kind, i) =>
      row(kind, {
        id: `6f1c3a9e-2b7d-4c1e-9a55-${String(i).padStart(12, '0')}`,
        condition: kind === 'RETURNED' ? 'DAMAGED' : kind === 'INSPECTED' ? 'FAILED' : null,
        note: kind === 'HELD' ? 'Recall "2026-14", lot 7' : '',
        ...(kind === 'STOCKED' ? { order_number: null, party: null, by_name: null } : {}),
      }),
    );
    const doc = custodyEpcis(rows, new Date('2026-11-28T02:00:00.000Z'));
    const ok = validate(doc);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(ok).toBe(true);
    const events = doc.epcisBody.eventList;
    expect(events).toHaveLength(CUSTODY_KIND_NAMES.length);
    expect(events.every((e) => e.type === 'ObjectEvent' && e.epcList[0] === 'urn:dme:serial:OXY-0000042')).toBe(true);
    const byStep = Object.fromEntries(events.map((e) => [e['dme:step'], e]));
    expect(byStep.STOCKED).toMatchObject({ action: 'ADD', bizStep: 'commissioning', disposition: 'active' });
    expect(byStep.OUT_FOR_DELIVERY).toMatchObject({ action: 'OBSERVE', bizStep: 'shipping', disposition: 'in_transit' });
    expect(byStep.RETURNED).toMatchObject({ bizStep: 'receiving', disposition: 'damaged', 'dme:condition': 'DAMAGED' });
    expect(byStep.INSPECTED).toMatchObject({ bizStep: 'inspecting', disposition: 'non_conformant' });
    expect(byStep.SCRAPPED).toMatchObject({ action: 'DELETE', bizStep: 'destroying', disposition: 'destroyed' });
    expect(byStep.PACKED).toMatchObject({ bizTransactionList: [{ type: 'po', bizTransaction: 'urn:dme:order:ORD-20261128-000042' }], readPoint: { id: 'urn:dme:bin:0b7e8d0c-5e0a-4c5b-8f3e-4d2b1a9c7e60' } });
  });

  it('a document the schema refuses is caught (the test can fail)', () => {
    const doc = custodyEpcis([row('PACKED')], new Date('2026-11-28T02:00:00.000Z')) as unknown as { epcisBody: { eventList: Array<Record<string, unknown>> } };
    doc.epcisBody.eventList[0]!.action = 'MOVE';
    expect(validate(doc)).toBe(false);
    const noTime = custodyEpcis([row('PACKED')], new Date('2026-11-28T02:00:00.000Z')) as unknown as { epcisBody: { eventList: Array<Record<string, unknown>> } };
    delete noTime.epcisBody.eventList[0]!.eventTime;
    expect(validate(noTime)).toBe(false);
  });

  it('CSV: a header, one line per entry, quoting where needed, a formula defused', () => {
    const csv = custodyCsv([
      row('RETURNED', { condition: 'OK', note: 'Scratched, "minor"' }),
      row('INSPECTED', { checklist: [{ point: 'Filter replaced', ok: true }, { point: 'Alarm tested', ok: false }], note: '=HYPERLINK("x")' }),
    ]);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(CSV_HEADER.join(','));
    expect(lines[1]).toBe('OXY-0000042,2026-11-28T01:30:00.000Z,Returned,,wendy,Shelf A,ORD-20261128-000042,Jose Rizal,OK,"Scratched, ""minor""",');
    expect(lines[2]).toBe(`OXY-0000042,2026-11-28T01:30:00.000Z,Inspected,,wendy,Shelf A,ORD-20261128-000042,Jose Rizal,,"'=HYPERLINK(""x"")",Filter replaced: OK; Alarm tested: FAIL`);
    expect(lines[3]).toBe('');
  });
});
