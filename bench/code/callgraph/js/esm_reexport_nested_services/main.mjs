import { UserService, billing, Logger, makeId } from './src/index.mjs';

function checkout(service, name, cart) {
  const id = service.register(name);
  const bill = billing.invoice(id, cart);
  return { user: service.find(id), bill };
}

const audit = new Logger('audit');
const service = new UserService(new Map());
const result = checkout(service, 'ada', [{ price: 10 }, { price: 5.5 }]);
audit.info(`checkout ${makeId(result.bill.id)}`);
console.log(result, audit.entries, service.log.entries);
