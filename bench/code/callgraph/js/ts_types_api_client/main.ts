import { ApiClient, fakeFetch, looksLikeUser, type User } from './src/index';

async function loadUsers(client: ApiClient, ids: number[]): Promise<User[]> {
  const users: User[] = [];
  for (const id of ids) {
    try {
      users.push(await client.getUser(id));
    } catch (err) {
      console.warn(`skipping ${id}: ${(err as Error).message}`);
    }
  }
  return users;
}

const client = new ApiClient('https://api.test/', fakeFetch);
loadUsers(client, [1, 2, 3, 1]).then((users) => {
  console.log(users.filter((u) => looksLikeUser(u)).map((u) => u.name));
});
