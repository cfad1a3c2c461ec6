export interface Entity {
  id: string;
}

export interface Repository<T extends Entity> {
  get(id: string): T | undefined;
  save(item: T): T;
}

export enum Status {
  Active = 'active',
  Archived = 'archived',
}

export function makeId(prefix: string, n: number): string;
export function makeId(n: number): string;
export function makeId(a: string | number, b?: number): string {
  return typeof a === 'number' ? `id-${a}` : `${a}-${b ?? 0}`;
}
