export default class Logger {
  constructor(scope) {
    this.scope = scope;
    this.entries = [];
  }

  info(msg) {
    return this.write('info', msg);
  }

  write(level, msg) {
    const line = `${level} [${this.scope}] ${msg}`;
    this.entries.push(line);
    return line;
  }
}
