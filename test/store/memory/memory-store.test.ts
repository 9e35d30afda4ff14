// The memory store, the reference implementation of the storage ports, passes the same contract suites as
// the file and Redis stores: what it holds lives in a MemoryStoreData that outlives each opening, and a copy
// of that data is what a crash would leave.
import { MemoryStore, MemoryStoreData } from '../../../src/store/memory/memory-store.js';
import { ledgerContract, type StoreHarness } from '../ledger-contract.js';
import { outboxContract } from '../outbox-contract.js';

function memoryHarness(data = MemoryStoreData.create()): StoreHarness {
  return {
    open: async () => new MemoryStore(data),
    crashCopy: async () => memoryHarness(data.copy()),
  };
}

ledgerContract('memory', async () => memoryHarness());
outboxContract('memory', async () => memoryHarness());
