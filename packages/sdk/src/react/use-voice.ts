/**
 * `useVoice` / `useTranscript` / `useVoiceEvent`: a {@link Voice}'s state, transcript log and
 * events in a component.
 */
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { VOICE_OFF } from '../voice/base-voice.js';
import type { TranscriptEntry, Voice, VoiceEvents, VoiceState } from '../voice/types.js';

const NO_ENTRIES: readonly TranscriptEntry[] = [];
const noSubscription = () => () => {};

/** `read(voice)` (or `fallback` without a voice), re-rendering on every change of the voice. */
function useVoiceSnapshot<T>(
  voice: Voice | null | undefined,
  read: (voice: Voice) => T,
  fallback: T,
): T {
  const subscribe = useCallback(
    (listener: () => void) => (voice ? voice.subscribe(listener) : noSubscription()),
    [voice],
  );
  const getSnapshot = useCallback(() => (voice ? read(voice) : fallback), [voice, read, fallback]);
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}

const readState = (voice: Voice): VoiceState => voice.state;
const readTranscript = (voice: Voice): readonly TranscriptEntry[] => voice.transcript;

/** What {@link useVoice} gives: the state and the controls. */
export interface VoiceView extends VoiceState {
  connect: Voice['connect'];
  disconnect: Voice['disconnect'];
  setMicEnabled: Voice['setMicEnabled'];
  setMicMuted: Voice['setMicMuted'];
}

/** The voice's state (re-rendering on change) and its controls; all off while `voice` is null. */
export function useVoice(voice: Voice | null | undefined): VoiceView {
  const state = useVoiceSnapshot(voice, readState, VOICE_OFF);
  return useMemo(
    () => ({
      ...state,
      connect: async (options) => voice?.connect(options),
      disconnect: async () => voice?.disconnect(),
      setMicEnabled: async (enabled) => (voice ? voice.setMicEnabled(enabled) : false),
      setMicMuted: async (muted) => voice?.setMicMuted(muted),
    }),
    [state, voice],
  );
}

/** What {@link useTranscript} gives. */
export interface TranscriptView {
  /** The user's and the bot's lines, oldest first. */
  entries: readonly TranscriptEntry[];
  /** The user's words still being recognized (the last user line, while not final). */
  hearing: string | undefined;
  /** The bot's reply being spoken (the last bot line, while not final). */
  speaking: string | undefined;
}

/** The voice's transcript log, re-rendering as lines form. */
export function useTranscript(voice: Voice | null | undefined): TranscriptView {
  const entries = useVoiceSnapshot(voice, readTranscript, NO_ENTRIES);
  return useMemo(() => {
    const open = (role: TranscriptEntry['role']) => {
      const last = entries.findLast((e) => e.role === role);
      return last && !last.final ? last.text : undefined;
    };
    return { entries, hearing: open('user'), speaking: open('bot') };
  }, [entries]);
}

/** Call `listener` on each `event` of the voice while mounted (the latest listener is used). */
export function useVoiceEvent<K extends keyof VoiceEvents>(
  voice: Voice | null | undefined,
  event: K,
  listener: (payload: VoiceEvents[K]) => void,
): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(
    () => (voice ? voice.on(event, (payload) => latest.current(payload)) : undefined),
    [voice, event],
  );
}
