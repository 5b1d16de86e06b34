/*
 * How the api hands a text message to a network. One transport per provider protocol: SMPP to an operator's
 * or aggregator's SMSC now (smpp-transport.ts), an HTTP gateway later. A transport sends and reports delivery
 * receipts; keeping messages, retrying and choosing a transport belong to the caller.
 */

/** GSM 03.38 default alphabet (7-bit, data_coding 0) or UCS-2 (data_coding 8). */
export type SmsEncoding = 'gsm7' | 'ucs2';

export interface OutgoingSms {
  /** E.164, with its +. */
  to: string;
  text: string;
  /** Chosen from the text when absent: GSM-7 when every character is in its alphabet, else UCS-2. */
  encoding?: SmsEncoding;
}

export interface SentSms {
  /** The provider's id of the message, the one its delivery receipt names. */
  providerId: string;
  /** How many SMS the text took (what the operator bills). */
  parts: number;
  /** The provider's id of each part, in order (the first is `providerId`). */
  partIds: string[];
}

/** A final (or, when the provider says so, intermediate) state of a message sent. */
export type SmsDeliveryState = 'delivered' | 'failed' | 'expired' | 'rejected' | 'pending' | 'unknown';

export interface SmsReceipt {
  providerId: string;
  state: SmsDeliveryState;
  /** The provider's error code, when it gave one other than none. */
  error?: string;
}

export interface SmsTransport {
  /** Resolves once the provider accepted every part; rejects when it refuses or the transport is closed. */
  send(message: OutgoingSms): Promise<SentSms>;
  /** Stops for good: pending sends are rejected. */
  close(): Promise<void>;
}
