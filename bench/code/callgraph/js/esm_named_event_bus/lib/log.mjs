const lines = [];

export const sink = {
  write(line) {
    lines.push(line);
    return lines.length;
  },
  drain() {
    return lines.splice(0);
  },
};

export function emit(level, message) {
  const line = `[${level}] ${message}`;
  sink.write(line);
  return line;
}

export function flush() {
  const out = sink.drain();
  out.forEach((line) => console.log(line));
  return out.length;
}
