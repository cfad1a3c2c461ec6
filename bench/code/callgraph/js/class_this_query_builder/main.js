import { QueryBuilder } from './lib/query.js';

function activeUsers() {
  return QueryBuilder.from('users')
    .select('id', 'email')
    .where('active', true)
    .where('role', "o'admin")
    .limit(10);
}

const admins = new QueryBuilder('admins').where('level', 3);
console.log(activeUsers().toSQL());
console.log(activeUsers().union(admins));
