import { quoteIdent, quoteValue } from './sql.js';

export class QueryBuilder {
  #wheres = [];

  constructor(table) {
    this.table = table;
    this.columns = ['*'];
    this.limitCount = null;
  }

  static from(table) {
    return new QueryBuilder(table);
  }

  select(...columns) {
    this.columns = columns;
    return this;
  }

  where(column, value) {
    this.#wheres.push([column, value]);
    return this;
  }

  limit(n) {
    this.limitCount = n;
    return this;
  }

  #compileWhere() {
    if (this.#wheres.length === 0) return '';
    return ` WHERE ${this.#wheres.map(([c, v]) => `${quoteIdent(c)} = ${quoteValue(v)}`).join(' AND ')}`;
  }

  toSQL() {
    const cols = this.columns.map((c) => (c === '*' ? c : quoteIdent(c))).join(', ');
    const limit = this.limitCount == null ? '' : ` LIMIT ${this.limitCount}`;
    return `SELECT ${cols} FROM ${quoteIdent(this.table)}${this.#compileWhere()}${limit}`;
  }

  union(other) {
    return `${this.toSQL()} UNION ${other.toSQL()}`;
  }
}
