import * as v from './lib/validators.mjs';
import * as errors from './lib/errors.mjs';

function validateUser(user) {
  const problems = [];
  if (!v.isEmail(user.email)) problems.push(errors.fieldError('email', 'is invalid'));
  if (!v.minLength(3)(user.name)) problems.push(errors.fieldError('name', 'is too short'));
  if (!v.isPositiveInt(user.age)) problems.push(errors.fieldError('age', 'must be a positive integer'));
  return problems;
}

function assertValid(user) {
  const problems = validateUser(user);
  if (problems.length) throw new errors.ValidationError('user', errors.summarize(problems));
  return user;
}

console.log(assertValid({ email: 'ada@example.com', name: 'Ada', age: 36 }));
try {
  assertValid({ email: 'nope', name: 'Al', age: -1 });
} catch (err) {
  console.log(err.name, err.message);
}
