import type { Entity, Repository } from './entity';

export abstract class BaseRepository<T extends Entity> implements Repository<T> {
  protected items = new Map<string, T>();

  get(id: string): T | undefined {
    return this.items.get(id);
  }

  save(item: T): T {
    const stored = this.beforeSave(item);
    this.items.set(stored.id, stored);
    return stored;
  }

  protected abstract beforeSave(item: T): T;

  count(): number {
    return this.items.size;
  }
}
