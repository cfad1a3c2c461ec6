export class Store {
  constructor(backend) {
    this.backend = backend;
    this.hits = 0;
  }

  get(key) {
    this.hits += 1;
    return this.backend.read(key);
  }

  set(key, value) {
    return this.backend.write(key, value);
  }

  describe() {
    return `${this.backend.name} store (${this.hits} reads)`;
  }
}
