import { describe, expect, it, vi } from 'vitest';
import { micErrorOf, requestMicrophone } from './microphone.js';

const named = (name: string, message = '') => Object.assign(new Error(message), { name });

describe('microphone', () => {
  it('says politely why getUserMedia failed', () => {
    expect(micErrorOf(named('NotAllowedError')).reason).toBe('denied');
    expect(micErrorOf(named('NotFoundError'))).toEqual({
      reason: 'not-found',
      message: 'No microphone was found. You can keep typing.',
    });
    expect(micErrorOf(named('NotReadableError')).reason).toBe('in-use');
    expect(micErrorOf(named('TypeError')).reason).toBe('unsupported');
    expect(micErrorOf(new Error('worklet failed'))).toEqual({
      reason: 'failed',
      message: 'The microphone could not start (worklet failed). You can keep typing.',
    });
  });

  it('asks once and releases the device at once', async () => {
    const stop = vi.fn();
    const devices = { getUserMedia: vi.fn(async () => ({ getTracks: () => [{ stop }] })) };
    expect(await requestMicrophone(devices)).toBeUndefined();
    expect(stop).toHaveBeenCalledOnce();
    devices.getUserMedia.mockRejectedValueOnce(named('NotAllowedError'));
    expect((await requestMicrophone(devices))?.reason).toBe('denied');
    expect((await requestMicrophone(undefined))?.reason).toBe('unsupported');
  });
});
