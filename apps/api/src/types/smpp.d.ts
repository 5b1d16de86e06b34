/** The parts of `smpp` (node-smpp 0.5, untyped CommonJS) that the SMS transport and the SMSC simulator use. */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  /** A PDU: its header, and its parameters and TLVs by their SMPP names (decoded by the package's filters). */
  export interface PDU {
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    [field: string]: unknown;
    isResponse(): boolean;
    /** The response PDU to this request (same sequence number), `generic_nack` to an unknown command. */
    response(options?: Record<string, unknown>): PDU;
  }

  export type Callback = (pdu: PDU) => void;
  export type Command = (options?: Record<string, unknown>, onResponse?: Callback, onSent?: Callback) => boolean;

  export interface Session extends EventEmitter {
    socket: Socket;
    /** Sends a PDU; false when the socket is no longer writable. */
    send(pdu: PDU, onResponse?: Callback, onSent?: Callback): boolean;
    bind_transceiver: Command;
    bind_transmitter: Command;
    submit_sm: Command;
    deliver_sm: Command;
    enquire_link: Command;
    unbind: Command;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
  }

  export interface Server extends NetServer {
    sessions: Session[];
  }

  export interface Encoding {
    match(text: string): boolean;
    encode(text: string): Buffer;
    decode(bytes: Buffer): string;
  }

  const smpp: {
    PDU: new (command: string, options?: Record<string, unknown>) => PDU;
    connect(options: { host: string; port: number }, listener?: () => void): Session;
    createServer(options: Record<string, unknown>, listener: (session: Session) => void): Server;
    /** GSM 03.38 default alphabet (under the name ASCII: data_coding 0, one septet per octet) and UCS-2. */
    encodings: { ASCII: Encoding; UCS2: Encoding };
    errors: Record<string, number>;
  };
  export default smpp;
}
