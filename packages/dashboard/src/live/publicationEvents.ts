/**
 * Publications' live updates (socket.io `publication-update`, sent to the owner's sockets) handed
 * from whichever LiveConnection is open to the components showing publications.
 */
import type { PublicationUpdate } from '@aabify/shared';

type Listener = (update: PublicationUpdate) => void;
const listeners = new Set<Listener>();

export function onPublicationUpdate(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function emitPublicationUpdate(update: PublicationUpdate): void {
  for (const listener of listeners) listener(update);
}
