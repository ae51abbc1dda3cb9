import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WarehouseErrorCodes, type DescribeRow, type EmulatorSession, type WarehouseEmulator } from '../../../../src-main/connectors/warehouse';
import { memoryEmulator, ordersView, SALES_DDL, warehouseError } from './fixtures';

let emulator: WarehouseEmulator;
let session: EmulatorSession;

beforeEach(() => {
  emulator = memoryEmulator();
  session = emulator.openSession();
});
afterEach(() => emulator.close());

const run = (sql: string) => session.execute(sql).rows;
const fails = (sql: string) => warehouseError(() => session.execute(sql));
const describeView = (name: string) => run(`DESCRIBE SEMANTIC VIEW ${name}`) as unknown as DescribeRow[];
const property = (rows: DescribeRow[], kind: string | null, object: string | null, prop: string) =>
  rows.find((r) => r.object_kind === kind && r.object_name === object && r.property === prop)?.property_value;

describe('out of the box', () => {
  it('creates, lists, describes and prints a semantic view with the seeded role, warehouse and schema', () => {
    expect(run(SALES_DDL)).toEqual([{ status: 'Semantic view SALES_SV successfully created.' }]);
    expect(run('SHOW SEMANTIC VIEWS IN SCHEMA ANALYTICS.PUBLIC')).toEqual([
      expect.objectContaining({ name: 'SALES_SV', database_name: 'ANALYTICS', schema_name: 'PUBLIC', owner: 'DRYDOCK', comment: 'Sales analysis' }),
    ]);
    expect(describeView('SALES_SV').length).toBeGreaterThan(40);
    expect(run("SELECT GET_DDL('SEMANTIC_VIEW', 'SALES_SV')")[0]).toHaveProperty(`GET_DDL('SEMANTIC_VIEW', 'SALES_SV')`);
  });
});

describe('DESCRIBE SEMANTIC VIEW', () => {
  it('returns exactly the five Snowflake columns', () => {
    run(SALES_DDL);
    for (const row of describeView('SALES_SV')) {
      expect(Object.keys(row)).toEqual(['object_kind', 'object_name', 'parent_entity', 'property', 'property_value']);
    }
  });

  it('reports the view comment with NULL kind, name and parent, first', () => {
    run(SALES_DDL);
    expect(describeView('SALES_SV')[0]).toEqual({ object_kind: null, object_name: null, parent_entity: null, property: 'COMMENT', property_value: 'Sales analysis' });
  });

  it('reports each logical table with its base table, primary key, unique keys, synonyms and comment', () => {
    run(SALES_DDL);
    const rows = describeView('SALES_SV').filter((r) => r.object_kind === 'TABLE' && r.object_name === 'ORDERS');
    expect(rows.map((r) => [r.parent_entity, r.property, r.property_value])).toEqual([
      [null, 'BASE_TABLE_DATABASE_NAME', 'ANALYTICS'],
      [null, 'BASE_TABLE_SCHEMA_NAME', 'PUBLIC'],
      [null, 'BASE_TABLE_NAME', 'ORDERS'],
      [null, 'PRIMARY_KEY', '["O_ORDERKEY"]'],
      [null, 'SYNONYMS', '["sales orders"]'],
      [null, 'COMMENT', 'All orders'],
    ]);
    expect(property(describeView('SALES_SV'), 'TABLE', 'CUSTOMERS', 'UNIQUE_KEY')).toBe('["C_EMAIL"]');
    expect(property(describeView('SALES_SV'), 'TABLE', 'LINE_ITEMS', 'PRIMARY_KEY')).toBe('["L_ORDERKEY","L_LINENUMBER"]');
  });

  it('reports relationships under their referencing table, filling REF_KEY from the primary key when omitted', () => {
    run(SALES_DDL);
    const rows = describeView('SALES_SV').filter((r) => r.object_kind === 'RELATIONSHIP' && r.object_name === 'CUSTOMERS_TO_NATIONS');
    expect(rows.map((r) => [r.parent_entity, r.property, r.property_value])).toEqual([
      ['CUSTOMERS', 'TABLE', 'CUSTOMERS'],
      ['CUSTOMERS', 'REF_TABLE', 'NATIONS'],
      ['CUSTOMERS', 'FOREIGN_KEY', '["C_NATIONKEY"]'],
      ['CUSTOMERS', 'REF_KEY', '["N_NATIONKEY"]'],
    ]);
  });

  it('reports facts, dimensions and metrics with table, expression as written, data type and the rest', () => {
    run(SALES_DDL);
    const rows = describeView('SALES_SV');
    const metric = rows.filter((r) => r.object_kind === 'METRIC' && r.object_name === 'AVERAGE_VALUE');
    expect(metric.map((r) => [r.parent_entity, r.property, r.property_value])).toEqual([
      ['ORDERS', 'TABLE', 'ORDERS'],
      ['ORDERS', 'EXPRESSION', 'AVG(orders.o_totalprice)'],
      ['ORDERS', 'DATA_TYPE', 'NUMBER(38,8)'],
      ['ORDERS', 'COMMENT', 'Average order value'],
      ['ORDERS', 'ACCESS_MODIFIER', 'PUBLIC'],
    ]);
    expect(property(rows, 'DIMENSION', 'CUSTOMER_NAME', 'SYNONYMS')).toBe('["customer","client"]');
    // Dimensions cannot be private, so they carry no access modifier.
    expect(property(rows, 'DIMENSION', 'CUSTOMER_NAME', 'ACCESS_MODIFIER')).toBeUndefined();
  });

  it('infers data types from base columns through facts to metrics', () => {
    run(SALES_DDL);
    const rows = describeView('SALES_SV');
    const type = (kind: string, name: string) => property(rows, kind, name, 'DATA_TYPE');
    expect(type('DIMENSION', 'ORDER_DATE')).toBe('DATE');
    expect(type('DIMENSION', 'ORDER_YEAR')).toBe('NUMBER(4,0)');
    expect(type('DIMENSION', 'CUSTOMER_NAME')).toBe('VARCHAR(16777216)');
    expect(type('DIMENSION', 'CUSTOMER_NATION')).toBe('VARCHAR(25)');
    expect(type('FACT', 'NET_PRICE')).toBe('NUMBER(38,4)');
    expect(type('METRIC', 'REVENUE')).toBe('NUMBER(38,4)');
    expect(type('METRIC', 'ORDER_COUNT')).toBe('NUMBER(18,0)');
  });

  it('fails for a view that does not exist', () => {
    const error = fails('DESCRIBE SEMANTIC VIEW NOPE');
    expect(error.code).toBe(WarehouseErrorCodes.OBJECT_NOT_FOUND);
    expect(error.message).toBe("SQL compilation error:\nSemantic view 'ANALYTICS.PUBLIC.NOPE' does not exist or not authorized.");
    expect(error.vendorCode).toBe('002003');
  });
});

describe('semantic view rules', () => {
  it('rejects an expression naming a table alias that is not defined', () => {
    const sql = ordersView('v', 'DIMENSIONS (orders.d AS customers.c_name)');
    const error = fails(sql);
    expect(error.code).toBe(WarehouseErrorCodes.INVALID_IDENTIFIER);
    expect(error.message).toBe(`SQL compilation error: error line 1 at position ${sql.indexOf('customers.c_name')}\ninvalid identifier 'CUSTOMERS.C_NAME'`);
    expect(error.vendorCode).toBe('000904');
  });

  it('rejects a fact, dimension or metric on an undefined table alias', () => {
    expect(fails(ordersView('v', 'DIMENSIONS (ordrs.d AS o_orderdate)')).message).toContain("invalid identifier 'ORDRS'");
  });

  it('rejects a column the base table does not have', () => {
    expect(fails(ordersView('v', 'DIMENSIONS (orders.d AS o_nope)')).message).toContain("invalid identifier 'O_NOPE'");
  });

  it('rejects a primary key column the base table does not have', () => {
    const error = fails(ordersView('v', undefined, 'orders AS ANALYTICS.PUBLIC.ORDERS PRIMARY KEY (id)'));
    expect(error.code).toBe(WarehouseErrorCodes.INVALID_IDENTIFIER);
    expect(error.message).toContain("invalid identifier 'ID'");
  });

  it('rejects a base table that does not exist', () => {
    const error = fails(ordersView('v', undefined, 'orders AS ANALYTICS.PUBLIC.MISSING'));
    expect(error.code).toBe(WarehouseErrorCodes.OBJECT_NOT_FOUND);
    expect(error.message).toBe("SQL compilation error:\nTable 'ANALYTICS.PUBLIC.MISSING' does not exist or not authorized.");
    expect(error.sqlState).toBe('42S02');
  });

  it('rejects two logical tables with the same name', () => {
    const error = fails(ordersView('v', undefined, 'orders AS ANALYTICS.PUBLIC.ORDERS, orders AS ANALYTICS.PUBLIC.CUSTOMERS'));
    expect(error.code).toBe(WarehouseErrorCodes.INVALID_DEFINITION);
    expect(error.message).toContain("Duplicate logical table name 'ORDERS'");
  });

  it('rejects two members with the same name in one table, whatever their kinds', () => {
    const error = fails(ordersView('v', 'DIMENSIONS (orders.x AS o_orderdate) METRICS (orders.x AS COUNT(o_orderkey))'));
    expect(error.code).toBe(WarehouseErrorCodes.INVALID_DEFINITION);
    expect(error.message).toContain("Duplicate name 'ORDERS.X': already defined as a dimension.");
  });

  it('allows the same member name on different tables', () => {
    run(
      ordersView(
        'v',
        'DIMENSIONS (orders.name AS o_status, customers.name AS c_name)',
        'orders AS ANALYTICS.PUBLIC.ORDERS PRIMARY KEY (o_orderkey), customers AS ANALYTICS.PUBLIC.CUSTOMERS PRIMARY KEY (c_custkey)',
      ),
    );
    expect(describeView('v').filter((r) => r.object_name === 'NAME' && r.property === 'TABLE').map((r) => r.property_value)).toEqual(['ORDERS', 'CUSTOMERS']);
  });

  it('requires at least one dimension or metric', () => {
    const error = fails(ordersView('v', 'FACTS (orders.f AS o_totalprice)'));
    expect(error.code).toBe(WarehouseErrorCodes.INVALID_DEFINITION);
    expect(error.message).toBe('SQL compilation error:\nNo queryable expression is defined in the semantic view.');
  });

  describe('relationships', () => {
    const tables =
      'orders AS ANALYTICS.PUBLIC.ORDERS PRIMARY KEY (o_orderkey), customers AS ANALYTICS.PUBLIC.CUSTOMERS PRIMARY KEY (c_custkey) UNIQUE (c_email)';
    const view = (relationships: string, t = tables) => ordersView('v', `RELATIONSHIPS (${relationships}) DIMENSIONS (orders.d AS o_orderdate)`, t);

    it('must reference the primary key of the referenced table', () => {
      const error = fails(view('orders (o_custkey) REFERENCES customers (c_nationkey)'));
      expect(error.code).toBe(WarehouseErrorCodes.INVALID_DEFINITION);
      expect(error.message).toContain("references (C_NATIONKEY) of table 'CUSTOMERS', which is not its primary key or a unique key");
    });

    it('may reference a unique key', () => {
      run(view('orders (o_custkey) REFERENCES customers (c_email)'));
      expect(property(describeView('v'), 'RELATIONSHIP', 'ORDERS_TO_CUSTOMERS', 'REF_KEY')).toBe('["C_EMAIL"]');
    });

    it('without referenced columns needs a primary key on the referenced table', () => {
      const error = fails(view('orders (o_custkey) REFERENCES customers', 'orders AS ANALYTICS.PUBLIC.ORDERS, customers AS ANALYTICS.PUBLIC.CUSTOMERS'));
      expect(error.code).toBe(WarehouseErrorCodes.INVALID_DEFINITION);
      expect(error.message).toContain("table 'CUSTOMERS', which has no primary key");
    });

    it('gets a generated name when unnamed', () => {
      run(view('orders (o_custkey) REFERENCES customers'));
      expect(describeView('v').find((r) => r.object_kind === 'RELATIONSHIP')?.object_name).toBe('ORDERS_TO_CUSTOMERS');
    });

    it('must name tables that are defined', () => {
      expect(fails(view('orders (o_custkey) REFERENCES clients')).message).toContain("invalid identifier 'CLIENTS'");
    });

    it('must use columns the referencing table has', () => {
      expect(fails(view('orders (o_client) REFERENCES customers')).message).toContain("invalid identifier 'O_CLIENT'");
    });

    it('must have as many columns as the referenced key', () => {
      expect(fails(view('orders (o_custkey, o_status) REFERENCES customers')).message).toContain('has 2 column(s) but references 1 key column(s)');
    });

    it('may not reference the table itself', () => {
      expect(fails(view('orders (o_custkey) REFERENCES orders')).message).toContain("Relationship on table 'ORDERS' references the table itself.");
    });

    it('may not form a cycle', () => {
      const error = fails(view('a AS orders (o_custkey) REFERENCES customers, b AS customers (c_custkey) REFERENCES orders'));
      expect(error.code).toBe(WarehouseErrorCodes.INVALID_DEFINITION);
      expect(error.message).toContain('Relationships form a cycle: ORDERS -> CUSTOMERS -> ORDERS.');
    });

    it('must have unique names', () => {
      expect(fails(view('r AS orders (o_custkey) REFERENCES customers, r AS orders (o_custkey) REFERENCES customers (c_email)')).message).toContain(
        "Duplicate relationship name 'R'",
      );
    });
  });

  describe('metrics', () => {
    it('must be aggregate expressions', () => {
      const error = fails(ordersView('v', 'METRICS (orders.m AS o_totalprice * 2)'));
      expect(error.code).toBe(WarehouseErrorCodes.INVALID_DEFINITION);
      expect(error.message).toContain("Metric 'ORDERS.M' must be an aggregate expression");
    });

    it('may not use a column outside the aggregate', () => {
      expect(fails(ordersView('v', 'METRICS (orders.m AS SUM(o_totalprice) + o_totalprice)')).message).toContain(
        "Metric 'ORDERS.M' refers to 'ORDERS.O_TOTALPRICE' outside an aggregate function.",
      );
    });

    it('accept SUM, COUNT, AVG, MIN, MAX and COUNT(DISTINCT ...), and arithmetic over aggregates', () => {
      run(
        ordersView(
          'v',
          'METRICS (orders.a AS SUM(o_totalprice), orders.b AS COUNT(*), orders.c AS AVG(o_totalprice), orders.d AS MIN(o_orderdate), ' +
            'orders.e AS MAX(o_orderdate), orders.f AS COUNT(DISTINCT o_custkey), orders.g AS SUM(o_totalprice) / COUNT(o_orderkey))',
        ),
      );
      expect(describeView('v').filter((r) => r.object_kind === 'METRIC' && r.property === 'TABLE')).toHaveLength(7);
    });

    it('may combine other metrics outside aggregates', () => {
      run(ordersView('v', 'METRICS (orders.total AS SUM(o_totalprice), orders.n AS COUNT(o_orderkey), orders.avg_price AS orders.total / orders.n)'));
      expect(property(describeView('v'), 'METRIC', 'AVG_PRICE', 'EXPRESSION')).toBe('orders.total / orders.n');
    });

    it('may be window functions over a metric, but not over a column', () => {
      run(ordersView('w', 'DIMENSIONS (orders.customer AS o_custkey) METRICS (orders.total AS SUM(o_totalprice), orders.running AS SUM(orders.total) OVER (PARTITION BY orders.customer))'));
      expect(property(describeView('w'), 'METRIC', 'RUNNING', 'EXPRESSION')).toBe('SUM(orders.total) OVER (PARTITION BY orders.customer)');
      const error = fails(ordersView('v', 'METRICS (orders.m AS SUM(o_totalprice) OVER (PARTITION BY o_custkey))'));
      expect(error.code).toBe(WarehouseErrorCodes.INVALID_DEFINITION);
      expect(error.message).toContain("its function must be applied to a metric, and 'ORDERS.O_TOTALPRICE' is not one");
    });
  });

  describe('facts and dimensions', () => {
    const tables = 'orders AS ANALYTICS.PUBLIC.ORDERS PRIMARY KEY (o_orderkey), customers AS ANALYTICS.PUBLIC.CUSTOMERS PRIMARY KEY (c_custkey)';

    it('may not refer to a metric', () => {
      const error = fails(ordersView('v', 'DIMENSIONS (orders.d AS orders.m) METRICS (orders.m AS COUNT(o_orderkey))'));
      expect(error.code).toBe(WarehouseErrorCodes.INVALID_DEFINITION);
      expect(error.message).toContain("Dimension 'ORDERS.D' cannot refer to metric 'ORDERS.M'.");
    });

    it('may read a table on the "one" side of a relationship', () => {
      run(ordersView('v', 'RELATIONSHIPS (orders (o_custkey) REFERENCES customers) DIMENSIONS (orders.customer AS customers.c_name)', tables));
      expect(property(describeView('v'), 'DIMENSION', 'CUSTOMER', 'DATA_TYPE')).toBe('VARCHAR(16777216)');
    });

    it('may not read an unrelated table, or the "many" side, outside an aggregate', () => {
      expect(fails(ordersView('v', 'DIMENSIONS (orders.customer AS customers.c_name)', tables)).message).toContain(
        "table 'CUSTOMERS' is not reachable from 'ORDERS' through a many-to-one relationship",
      );
      expect(fails(ordersView('v', 'RELATIONSHIPS (orders (o_custkey) REFERENCES customers) DIMENSIONS (customers.d AS orders.o_status)', tables)).code).toBe(
        WarehouseErrorCodes.INVALID_DEFINITION,
      );
    });

    it('may aggregate only a table that references theirs', () => {
      run(ordersView('v', 'RELATIONSHIPS (orders (o_custkey) REFERENCES customers) FACTS (customers.order_count AS COUNT(orders.o_orderkey)) DIMENSIONS (customers.n AS c_name)', tables));
      expect(
        fails(ordersView('w', 'RELATIONSHIPS (orders (o_custkey) REFERENCES customers) FACTS (orders.f AS COUNT(o_orderkey)) DIMENSIONS (orders.d AS o_status)', tables))
          .message,
      ).toContain("a fact or dimension may only aggregate a table that references 'ORDERS'");
    });

    it('may refer to members defined later, but not in a circle', () => {
      run(ordersView('v', 'FACTS (orders.a AS orders.b + 1, orders.b AS o_totalprice) DIMENSIONS (orders.d AS orders.a)'));
      const error = fails(ordersView('w', 'FACTS (orders.a AS orders.b, orders.b AS orders.a) DIMENSIONS (orders.d AS o_status)'));
      expect(error.code).toBe(WarehouseErrorCodes.INVALID_DEFINITION);
      expect(error.message).toContain('Circular reference between expressions: ORDERS.A -> ORDERS.B -> ORDERS.A.');
    });
  });
});

describe('identifiers and QUOTED_IDENTIFIERS_IGNORE_CASE', () => {
  it('upper-cases unquoted identifiers', () => {
    run(ordersView('my_view', 'DIMENSIONS (orders.Order_Date AS o_orderdate)'));
    expect(run('SHOW SEMANTIC VIEWS')[0]).toMatchObject({ name: 'MY_VIEW' });
    expect(describeView('MY_VIEW').some((r) => r.object_name === 'ORDER_DATE')).toBe(true);
  });

  it('keeps the case of quoted identifiers while the setting is false', () => {
    run(ordersView('"My View"', 'DIMENSIONS ("orders"."Order Date" AS o_orderdate)', '"orders" AS ANALYTICS.PUBLIC.ORDERS'));
    expect(run('SHOW SEMANTIC VIEWS')[0]).toMatchObject({ name: 'My View' });
    const rows = describeView('"My View"');
    expect(rows.find((r) => r.object_kind === 'DIMENSION')).toMatchObject({ object_name: 'Order Date', parent_entity: 'orders' });
    // Quoted lower-case names do not match the upper-case stored base table.
    expect(fails(ordersView('v2', undefined, 'orders AS ANALYTICS.PUBLIC."orders"')).code).toBe(WarehouseErrorCodes.OBJECT_NOT_FOUND);
    expect(fails('DESCRIBE SEMANTIC VIEW "my view"').code).toBe(WarehouseErrorCodes.OBJECT_NOT_FOUND);
  });

  it('upper-cases quoted identifiers too when the setting is true', () => {
    emulator.setQuotedIdentifiersIgnoreCase(true);
    run(ordersView('"my_view"', 'DIMENSIONS ("orders"."order_date" AS "o_orderdate")', '"orders" AS "analytics"."public"."orders"'));
    expect(run('SHOW SEMANTIC VIEWS')[0]).toMatchObject({ name: 'MY_VIEW' });
    expect(describeView('my_view').find((r) => r.object_kind === 'DIMENSION')).toMatchObject({ object_name: 'ORDER_DATE', parent_entity: 'ORDERS' });
  });
});

describe('CREATE, OR REPLACE, IF NOT EXISTS and DROP', () => {
  it('refuses to create a view that exists', () => {
    run(ordersView('v'));
    const error = fails(ordersView('v'));
    expect(error.code).toBe(WarehouseErrorCodes.OBJECT_EXISTS);
    expect(error.message).toBe("SQL compilation error:\nObject 'V' already exists.");
  });

  it('leaves an existing view alone with IF NOT EXISTS', () => {
    run(ordersView('v'));
    expect(run(ordersView('IF NOT EXISTS v', 'METRICS (orders.m AS COUNT(o_orderkey))'))).toEqual([{ status: 'V already exists, statement succeeded.' }]);
    expect(describeView('v').some((r) => r.object_kind === 'METRIC')).toBe(false);
  });

  it('replaces an existing view with OR REPLACE', () => {
    run(ordersView('v'));
    run(ordersView('v', 'METRICS (orders.m AS COUNT(o_orderkey))').replace('CREATE', 'CREATE OR REPLACE'));
    expect(describeView('v').some((r) => r.object_kind === 'DIMENSION')).toBe(false);
    expect(describeView('v').some((r) => r.object_kind === 'METRIC')).toBe(true);
  });

  it('keeps the previous definition when a replacement is invalid', () => {
    run(ordersView('v'));
    fails(`CREATE OR REPLACE SEMANTIC VIEW v TABLES (orders AS ANALYTICS.PUBLIC.ORDERS) METRICS (orders.m AS o_orderkey)`);
    expect(describeView('v').some((r) => r.object_name === 'ORDER_DATE')).toBe(true);
  });

  it('drops a semantic view, and with IF EXISTS accepts one that is gone', () => {
    run(ordersView('v'));
    expect(run('DROP SEMANTIC VIEW v')).toEqual([{ status: 'V successfully dropped.' }]);
    expect(run('SHOW SEMANTIC VIEWS')).toEqual([]);
    expect(run('DROP SEMANTIC VIEW IF EXISTS v')).toEqual([{ status: 'Drop statement executed successfully (V already dropped).' }]);
    expect(fails('DROP SEMANTIC VIEW v').code).toBe(WarehouseErrorCodes.OBJECT_NOT_FOUND);
  });
});

describe('helper views (CREATE VIEW)', () => {
  it('creates a view whose columns a semantic view can then use', () => {
    run('CREATE OR REPLACE VIEW ANALYTICS.PUBLIC.MODEL_SV_SRC_BIG_ORDERS AS SELECT o.o_orderkey AS id, o.o_totalprice AS amount, c.c_name FROM orders o JOIN customers c ON c.c_custkey = o.o_custkey WHERE o.o_totalprice > 100');
    expect(emulator.describeTable('ANALYTICS', 'PUBLIC', 'MODEL_SV_SRC_BIG_ORDERS')).toEqual([
      { name: 'ID', type: 'NUMBER(38,0)' },
      { name: 'AMOUNT', type: 'NUMBER(12,2)' },
      { name: 'C_NAME', type: 'VARCHAR(16777216)' },
    ]);
    run('CREATE SEMANTIC VIEW v TABLES (big AS MODEL_SV_SRC_BIG_ORDERS PRIMARY KEY (id)) METRICS (big.total AS SUM(amount))');
    expect(property(describeView('v'), 'METRIC', 'TOTAL', 'DATA_TYPE')).toBe('NUMBER(38,2)');
    expect(fails('CREATE SEMANTIC VIEW w TABLES (big AS MODEL_SV_SRC_BIG_ORDERS) METRICS (big.total AS SUM(o_totalprice))').code).toBe(
      WarehouseErrorCodes.INVALID_IDENTIFIER,
    );
  });

  it('expands SELECT * from a known table and honours an explicit column list', () => {
    run('CREATE VIEW star AS SELECT * FROM nations');
    expect(emulator.describeTable('ANALYTICS', 'PUBLIC', 'STAR')?.map((c) => c.name)).toEqual(['N_NATIONKEY', 'N_NAME']);
    run('CREATE VIEW named (k, n) AS SELECT * FROM nations');
    expect(emulator.describeTable('ANALYTICS', 'PUBLIC', 'NAMED')).toEqual([
      { name: 'K', type: 'NUMBER(38,0)' },
      { name: 'N', type: 'VARCHAR(25)' },
    ]);
    expect(fails('CREATE VIEW bad (k) AS SELECT * FROM nations').message).toContain('declared 1 column(s), but view query produces 2 column(s)');
  });

  it('leaves columns unknown (and semantic views lenient) when the query is not plainly derivable', () => {
    run('CREATE VIEW calc AS SELECT o_orderkey + 1 FROM orders');
    expect(emulator.describeTable('ANALYTICS', 'PUBLIC', 'CALC')).toBeNull();
    run('CREATE SEMANTIC VIEW v TABLES (c AS CALC) DIMENSIONS (c.anything AS whatever_column)');
  });

  it('refuses a query reading a table that does not exist, ignoring CTE names', () => {
    expect(fails('CREATE VIEW v AS SELECT * FROM nowhere').message).toContain("Object 'ANALYTICS.PUBLIC.NOWHERE' does not exist or not authorized.");
    run('CREATE VIEW v AS WITH recent AS (SELECT * FROM orders WHERE EXTRACT(year FROM o_orderdate) > 2020) SELECT * FROM recent');
  });

  it('returns the view text through GET_DDL and can be dropped', () => {
    run('CREATE VIEW MODEL_SV_SRC_X AS SELECT o_orderkey FROM orders');
    expect(run("SELECT GET_DDL('VIEW', 'MODEL_SV_SRC_X') AS ddl")).toEqual([{ DDL: 'create or replace view MODEL_SV_SRC_X as SELECT o_orderkey FROM orders;' }]);
    expect(run('DROP VIEW MODEL_SV_SRC_X')).toEqual([{ status: 'MODEL_SV_SRC_X successfully dropped.' }]);
    expect(fails('DROP VIEW ORDERS').message).toContain("Object found is of type 'TABLE', not specified type 'VIEW'.");
  });
});

describe('sessions', () => {
  it('resolves one- and two-part names against the current database and schema', () => {
    emulator.createSchema('ANALYTICS', 'MARTS');
    emulator.grantFullAccess('DRYDOCK', { database: 'ANALYTICS', schema: 'MARTS' });
    run(ordersView('MARTS.v'));
    expect(run('SHOW SEMANTIC VIEWS IN SCHEMA MARTS')[0]).toMatchObject({ schema_name: 'MARTS', name: 'V' });
    run('USE SCHEMA MARTS');
    expect(run("SELECT GET_DDL('SEMANTIC_VIEW', 'v')")).toHaveLength(1);
  });

  it('needs a current schema for an unqualified name', () => {
    const bare = emulator.openSession({ database: null, schema: null });
    const error = warehouseError(() => bare.execute(ordersView('v')));
    expect(error.code).toBe(WarehouseErrorCodes.NO_CURRENT_SCHEMA);
    expect(error.message).toContain("This session does not have a current database. Call 'USE DATABASE', or use a qualified name.");
  });

  it('executes exactly one statement per call', () => {
    const error = fails('DROP VIEW IF EXISTS a; DROP VIEW IF EXISTS b');
    expect(error.code).toBe(WarehouseErrorCodes.STATEMENT_COUNT);
    expect(error.message).toBe('Actual statement count 2 did not match the desired statement count 1.');
  });

  it('filters SHOW with LIKE (case-insensitive), STARTS WITH and LIMIT, ordered by name', () => {
    for (const name of ['SALES_A', 'SALES_B', 'OTHER']) run(ordersView(name));
    expect(run("SHOW SEMANTIC VIEWS LIKE 'sales%'").map((r) => r.name)).toEqual(['SALES_A', 'SALES_B']);
    expect(run("SHOW SEMANTIC VIEWS STARTS WITH 'O'").map((r) => r.name)).toEqual(['OTHER']);
    expect(run('SHOW SEMANTIC VIEWS LIMIT 2').map((r) => r.name)).toEqual(['OTHER', 'SALES_A']);
    expect(Object.keys(run('SHOW TERSE SEMANTIC VIEWS')[0])).toEqual(['created_on', 'name', 'kind', 'database_name', 'schema_name']);
  });
});
