// Keeps the opened export in the browser's IndexedDB, so a reload reopens it. The file's text
// is stored as it was read: reopening parses it again with the same checks.

const DB = 'kenning-browser';
const STORE = 'knowledge-base';
const KEY = 'current';

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function transact(mode, action) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = action(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

/** Saves the opened file (its name, text and size in bytes) as the knowledge base to reopen. */
export const saveOpened = (name, text, bytes) => transact('readwrite', (s) => s.put({ name, text, bytes, savedAt: Date.now() }, KEY));
/** The saved `{name, text, bytes}`, or undefined. */
export const loadOpened = () => transact('readonly', (s) => s.get(KEY));
/** Forgets the saved knowledge base. */
export const clearOpened = () => transact('readwrite', (s) => s.delete(KEY));
