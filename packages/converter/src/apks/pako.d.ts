/** The part of pako 2.1 (a port of stock zlib, no types of its own) the engine uses. */
declare module 'pako' {
  export function deflateRaw(data: Uint8Array, options?: { level?: number }): Uint8Array;
}
