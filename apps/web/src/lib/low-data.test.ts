import { describe, expect, it } from 'vitest';
import { withFakeConnection } from './fake-connection.testing.ts';
import {
  backgroundInterval,
  isLowData,
  LOW_DATA_POLL_FACTOR,
  LOW_DATA_STORAGE_KEY,
  lowDataReason,
  setLowDataChoice,
} from './low-data.ts';

const connection = withFakeConnection();

describe('low-data mode', () => {
  it('is off on a fast connection that asks nothing, and follows Save-Data and 2G when automatic', () => {
    expect(lowDataReason()).toBeNull();
    connection().saveData = true;
    expect(lowDataReason()).toBe('save_data');
    connection().saveData = false;
    for (const type of ['slow-2g', '2g']) {
      connection().effectiveType = type;
      expect(lowDataReason()).toBe('slow_connection');
    }
    connection().effectiveType = '3g';
    expect(isLowData()).toBe(false);
  });

  it('is off in browsers that report nothing about the connection', () => {
    Reflect.deleteProperty(navigator, 'connection');
    expect(lowDataReason()).toBeNull();
  });

  it('keeps the choice on this device: on whatever the connection, off even when the browser asks to save data', () => {
    setLowDataChoice('on');
    expect(localStorage.getItem(LOW_DATA_STORAGE_KEY)).toBe('on');
    expect(lowDataReason()).toBe('chosen');
    connection().saveData = true;
    setLowDataChoice('off');
    expect(isLowData()).toBe(false);
    setLowDataChoice('auto');
    expect(localStorage.getItem(LOW_DATA_STORAGE_KEY)).toBeNull();
    expect(lowDataReason()).toBe('save_data');
    localStorage.setItem(LOW_DATA_STORAGE_KEY, 'sometimes');
    expect(lowDataReason()).toBe('save_data');
  });

  it('makes background checks less frequent, read at each tick', () => {
    const interval = backgroundInterval(60_000);
    expect(interval()).toBe(60_000);
    setLowDataChoice('on');
    expect(interval()).toBe(60_000 * LOW_DATA_POLL_FACTOR);
  });
});
