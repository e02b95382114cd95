/**
 * `@scenaro/sdk/protocol`: the data both sides of the system share. Constants,
 * types, builders, validators and the frame codec; no I/O and no Node built-ins.
 */
export * from './rpc.js';
export * from './rtvi.js';
export * from './rtvi-builders.js';
export * from './rtvi-version.js';
export * from './rtvi-schemas.js';
export * from './rtvi-parse.js';
export * from './control-plane.js';
export * from './frames.js';
export * from './client-frame.js';
export * from './rpc-extensions.js';
export {
  FrameSchema,
  MessageFrameSchema,
  AudioRawFrameSchema,
  TextFrameSchema,
  TranscriptionFrameSchema,
  InterruptionFrameSchema,
} from './generated/frames_pb.js';
export type {
  Frame,
  MessageFrame,
  AudioRawFrame,
  TextFrame,
  TranscriptionFrame,
  InterruptionFrame,
} from './generated/frames_pb.js';
