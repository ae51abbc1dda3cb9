import { describe, expect, it } from 'vitest';
import {
  classifyTarget,
  LakehouseError,
  metricViewDefinitionHash,
  metricViewYamlEquals,
  ownershipProperties,
  parseMetricViewYaml,
  parseQualifiedName,
  quoteIdentifier,
  quoteQualifiedName,
  sqlStringLiteral,
  type LakehouseObject,
} from '../../../../src-main/connectors/lakehouse';
import { ORDERS_YAML } from './fixtures';

describe('metricViewYamlEquals compares parsed YAML, not text', () => {
  it('ignores layout, quoting, comments and mapping key order', () => {
    const reordered = `# generated
source: "main.default.orders"
version: 1.1
measures:
  - {expr: COUNT(1), name: n}
`;
    expect(metricViewYamlEquals('version: 1.1\nsource: main.default.orders\nmeasures:\n  - name: n\n    expr: COUNT(1)\n', reordered)).toBe(true);
  });

  it('treats version 1.1 and "1.1" as the same', () => {
    expect(metricViewYamlEquals('version: 1.1\nsource: t\n', 'version: "1.1"\nsource: t\n')).toBe(true);
  });

  it('sees a changed value or a changed list order as a change', () => {
    expect(metricViewYamlEquals(ORDERS_YAML, ORDERS_YAML.replace('COUNT(1)', 'COUNT(*)'))).toBe(false);
    const a = 'version: 1.1\nsource: t\ndimensions:\n  - name: a\n    expr: a\n  - name: b\n    expr: b\n';
    const b = 'version: 1.1\nsource: t\ndimensions:\n  - name: b\n    expr: b\n  - name: a\n    expr: a\n';
    expect(metricViewYamlEquals(a, b)).toBe(false);
  });

  it('reads YAML 1.2: a quoted and an unquoted on key are the same key, and yes is a string', () => {
    expect(metricViewYamlEquals("joins:\n  - 'on': x = y\n", 'joins:\n  - on: x = y\n')).toBe(true);
    expect(parseMetricViewYaml('on: 1\nname: n\nflag: yes\nok: true\n')).toEqual({ on: 1, name: 'n', flag: 'yes', ok: true });
  });

  it('is false for text that does not parse unless it is identical', () => {
    expect(metricViewYamlEquals('a: [', 'a: [ ')).toBe(false);
    expect(metricViewYamlEquals('a: [', 'a: [')).toBe(true);
  });
});

describe('ownership properties and target classification', () => {
  const managed = (yaml: string, properties: Record<string, string>): LakehouseObject => ({
    catalog: 'main',
    schema: 'default',
    name: 'm',
    kind: 'METRIC_VIEW',
    owner: 'drydock',
    properties,
    definition: { yaml, properties, owner: 'drydock' },
  });

  it('records managed flag, deployment, view and a hash of the parsed definition', () => {
    const properties = ownershipProperties({ deployment: 3, view: 'orders', yaml: ORDERS_YAML });
    expect(properties).toEqual({
      'drydock.managed': 'true',
      'drydock.deployment': '3',
      'drydock.view': 'orders',
      'drydock.definition_hash': expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    expect(metricViewDefinitionHash(`# hi\n${ORDERS_YAML}`)).toBe(properties['drydock.definition_hash']);
    expect(metricViewDefinitionHash(ORDERS_YAML.replace('SUM', 'AVG'))).not.toBe(properties['drydock.definition_hash']);
  });

  it('refuses to hash YAML that does not parse', () => {
    expect(() => metricViewDefinitionHash('a: [')).toThrow(LakehouseError);
  });

  it('classifies absent, unmanaged, managed elsewhere, managed and drifted targets', () => {
    const properties = ownershipProperties({ deployment: 3, view: 'orders', yaml: ORDERS_YAML });
    expect(classifyTarget(null, { deployment: 3 })).toEqual({ state: 'absent' });
    expect(classifyTarget({ catalog: 'main', schema: 'default', name: 'm', kind: 'TABLE', properties: {} }, { deployment: 3 }).state).toBe('unmanaged');
    expect(classifyTarget(managed(ORDERS_YAML, {}), { deployment: 3 }).state).toBe('unmanaged');
    expect(classifyTarget(managed(ORDERS_YAML, properties), { deployment: 4 })).toEqual({ state: 'managed_elsewhere', deployment: '3' });
    expect(classifyTarget(managed(ORDERS_YAML, properties), { deployment: 3 })).toEqual({ state: 'managed' });
    expect(classifyTarget(managed(ORDERS_YAML.replace('SUM', 'AVG'), properties), { deployment: 3 })).toEqual({ state: 'drifted' });
  });

  it('does not call a target drifted when it holds what the caller last wrote but the hash update was lost', () => {
    const stale = ownershipProperties({ deployment: 3, view: 'orders', yaml: ORDERS_YAML });
    const newer = ORDERS_YAML.replace('SUM', 'AVG');
    expect(classifyTarget(managed(newer, stale), { deployment: 3, lastWrittenYaml: newer })).toEqual({ state: 'managed' });
    expect(classifyTarget(managed(newer, stale), { deployment: 3, lastWrittenYaml: ORDERS_YAML })).toEqual({ state: 'drifted' });
  });
});

describe('identifier quoting', () => {
  it('backtick-quotes identifiers and doubles embedded backticks', () => {
    expect(quoteIdentifier('orders')).toBe('`orders`');
    expect(quoteIdentifier('we`ird name')).toBe('`we``ird name`');
    expect(quoteQualifiedName('main', 'default', 'my view')).toBe('`main`.`default`.`my view`');
    expect(() => quoteIdentifier('')).toThrow(LakehouseError);
  });

  it('escapes string literals with backslashes', () => {
    expect(sqlStringLiteral("it's a \\ test")).toBe("'it\\'s a \\\\ test'");
  });

  it('splits dotted names, honouring backtick-quoted parts', () => {
    expect(parseQualifiedName('main.default.orders')).toEqual(['main', 'default', 'orders']);
    expect(parseQualifiedName('`my.cat`.default.`we``ird`')).toEqual(['my.cat', 'default', 'we`ird']);
    expect(() => parseQualifiedName('main..orders')).toThrow(/empty part/);
    expect(() => parseQualifiedName('`main.default')).toThrow(/not closed/);
    expect(() => parseQualifiedName('main.')).toThrow(/ends with a dot/);
  });
});
