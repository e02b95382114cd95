/** The voices compiled into the Flite WASI binary. */
export const FLITE_VOICES = ['slt', 'rms', 'awb', 'kal16', 'kal'] as const;
export type FliteVoice = (typeof FLITE_VOICES)[number];
