import { BaseRepository } from './memory-repo';
import { Status, makeId } from './entity';
import type { Entity } from './entity';

export interface Project extends Entity {
  name: string;
  status: Status;
  updatedAt?: number;
}

export class ProjectRepository extends BaseRepository<Project> {
  private seq = 0;

  create(name: string): Project {
    this.seq += 1;
    return this.save({ id: makeId('prj', this.seq), name, status: Status.Active });
  }

  archive(id: string): Project | undefined {
    const project = this.get(id);
    return project ? this.save({ ...project, status: Status.Archived }) : undefined;
  }

  protected beforeSave(item: Project): Project {
    return { ...item, updatedAt: stamp() };
  }
}

const stamp = (): number => 1700000000000;
