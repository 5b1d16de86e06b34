/** http_ece (web-push's payload encryption, RFC 8188/8291), used by tests to decrypt what was pushed. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  interface Params {
    version: 'aes128gcm' | 'aesgcm' | 'aesgcm128';
    privateKey?: ECDH;
    authSecret?: string | Buffer;
    dh?: string | Buffer;
  }
  const ece: { decrypt(buffer: Buffer, params: Params): Buffer; encrypt(buffer: Buffer, params: Params): Buffer };
  export default ece;
}
