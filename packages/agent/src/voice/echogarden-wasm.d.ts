// Types of the two Emscripten modules the voice code loads (the packages ship none).
declare module '@echogarden/speex-resampler-wasm' {
  export interface SpeexResamplerModule {
    HEAPU8: Uint8Array;
    HEAP16: Int16Array;
    HEAPU32: Uint32Array;
    _malloc(bytes: number): number;
    _free(ptr: number): void;
    _speex_resampler_init(
      channels: number,
      inRate: number,
      outRate: number,
      quality: number,
      errPtr: number,
    ): number;
    _speex_resampler_process_interleaved_int(
      state: number,
      inPtr: number,
      inLenPtr: number,
      outPtr: number,
      outLenPtr: number,
    ): number;
    _speex_resampler_skip_zeros(state: number): number;
    _speex_resampler_get_input_latency(state: number): number;
    _speex_resampler_destroy(state: number): void;
  }
  const factory: () => Promise<SpeexResamplerModule>;
  export default factory;
}

declare module '@echogarden/fvad-wasm' {
  export interface FvadModule {
    HEAP16: Int16Array;
    _malloc(bytes: number): number;
    _free(ptr: number): void;
    _fvad_new(): number;
    _fvad_free(handle: number): void;
    _fvad_set_mode(handle: number, mode: number): number;
    _fvad_set_sample_rate(handle: number, rate: number): number;
    _fvad_process(handle: number, framePtr: number, length: number): number;
  }
  const factory: () => Promise<FvadModule>;
  export default factory;
}
