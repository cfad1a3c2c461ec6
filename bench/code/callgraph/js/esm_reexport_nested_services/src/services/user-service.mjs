import Logger from '../logger.mjs';
import { hashId } from '../util/ids.mjs';

export class UserService {
  constructor(repo) {
    this.repo = repo;
    this.log = new Logger('users');
  }

  register(name) {
    const id = hashId(name);
    this.repo.set(id, { id, name });
    this.log.info(`registered ${name}`);
    return id;
  }

  find(id) {
    return this.repo.get(id) ?? null;
  }
}
