import { ProjectRepository, type Project } from './src/projects';
import { Status, makeId } from './src/entity';
import type { Repository } from './src/entity';

function summarize(repo: Repository<Project>, ids: string[]): string[] {
  return ids
    .map((id) => repo.get(id))
    .filter((p): p is Project => p !== undefined)
    .map((p) => `${p.id}:${p.name}:${p.status}`);
}

const repo = new ProjectRepository();
const api = repo.create('api');
repo.create('web');
repo.archive(api.id);
console.log(summarize(repo, [api.id, makeId(99), 'prj-2']), repo.count(), Status.Archived);
