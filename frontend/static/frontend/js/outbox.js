// Writes waiting for the network, in IndexedDB so that they survive a reload or a dead
// battery. Each keeps the idempotency key it was given when the user tapped: replaying it
// later (or twice) applies it once on the server.
const DB_NAME = "companion";
const STORE = "outbox";
let opened = null;

function database() {
  opened ||= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "key" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return opened;
}

async function run(mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(STORE, mode);
    const request = work(transaction.objectStore(STORE));
    transaction.oncomplete = () => resolve(request ? request.result : undefined);
    transaction.onerror = () => reject(transaction.error);
  });
}

export const put = (item) => run("readwrite", (store) => store.put(item));
export const remove = (key) => run("readwrite", (store) => store.delete(key));
// In the order they were tapped, but a call for help (`first`) before anything else: it
// leaves first when the network returns.
export async function pending() {
  const items = (await run("readonly", (store) => store.getAll())) || [];
  return items.sort((a, b) => (b.first ? 1 : 0) - (a.first ? 1 : 0) || a.created - b.created);
}
