// The LiveKit voice surface on the fake Room (its RPC over the loopback): room events become
// the voice state, events and transcript log; the microphone and its mute go to the local
// participant; composer dictation runs over the LiveKit transport with the voice's transcripts.
import type { Room } from 'livekit-client';
import { describe, expect, it } from 'vitest';
import { createLoopbackPair } from '../rpc/loopback.js';
import { ScenaroSession } from '../session/scenaro-session.js';
import { FakeLiveKitRoom } from '../test-support/fake-livekit-room.js';
import { DictationController } from '../voice/dictation-controller.js';
import { createLiveKitTransport } from './livekit-transport.js';
import { createLiveKitVoice } from './livekit-voice.js';
import type { LiveKitVoiceRoomLike } from './livekit-voice.js';

// Compile-time proof that a real livekit-client Room fits the voice.
const roomFits: (room: Room) => LiveKitVoiceRoomLike = (room) => room;
void roomFits;

const agent = { identity: 'agent-1', isLocal: false };
const segment = (id: string, text: string, final: boolean) => ({ id, text, final });

function setup() {
  const pair = createLoopbackPair({ agentIdentity: 'agent-1', userIdentity: 'visitor' });
  const room = new FakeLiveKitRoom(pair.user);
  const voice = createLiveKitVoice(room, { url: 'wss://lk.example', token: async () => 'tok' });
  const seen: string[] = [];
  voice.on('user-speaking', (e) => seen.push(`user ${e.speaking ? 'on' : 'off'}`));
  voice.on('bot-speaking', (e) => seen.push(`bot ${e.speaking ? 'on' : 'off'}`));
  voice.on('bot-interrupted', (e) => seen.push(`interrupted${e.inferred ? ' (inferred)' : ''}`));
  voice.on('bot-speech', (e) => seen.push(`said ${e.text}`));
  return { pair, room, voice, seen };
}

describe('LiveKit voice (fake Room over the loopback)', () => {
  it('connects with the microphone and follows speakers and transcriptions', async () => {
    const { room, voice, seen } = setup();
    await voice.connect({ mic: true });
    expect(room.voiceCalls).toEqual(['mic on', 'connect wss://lk.example tok']);
    expect(voice.state).toMatchObject({ connection: 'connected', mic: 'on' });

    room.emit('activeSpeakersChanged', [room.localParticipant]);
    room.emit('transcriptionReceived', [segment('u1', 'show me', false)], room.localParticipant);
    expect(voice.transcript).toEqual([{ id: 1, role: 'user', text: 'show me', final: false }]);
    room.emit(
      'transcriptionReceived',
      [segment('u1', 'show me kettles', true)],
      room.localParticipant,
    );
    room.emit('activeSpeakersChanged', []);
    room.emit('activeSpeakersChanged', [agent]);
    room.emit('transcriptionReceived', [segment('a1', 'Here are', false)], agent);
    room.emit('transcriptionReceived', [segment('a1', 'Here are three kettles.', true)], agent);
    // A repeated final segment is spoken once.
    room.emit('transcriptionReceived', [segment('a1', 'Here are three kettles.', true)], agent);
    // The user speaks over the agent, which goes quiet: barge-in (inferred, LiveKit has no event).
    room.emit('activeSpeakersChanged', [agent, room.localParticipant]);
    room.emit('activeSpeakersChanged', [room.localParticipant]);
    expect(seen).toEqual([
      'user on',
      'user off',
      'bot on',
      'said Here are three kettles.',
      'user on',
      'interrupted (inferred)',
      'bot off',
    ]);
    expect(voice.transcript).toEqual([
      { id: 1, role: 'user', text: 'show me kettles', final: true },
      { id: 2, role: 'bot', text: 'Here are three kettles.', final: true, interrupted: true },
    ]);

    // Mute follows the local microphone track.
    await voice.setMicMuted(true);
    expect(voice.state.micMuted).toBe(true);
    await voice.setMicMuted(false);
    expect(room.voiceCalls.slice(-2)).toEqual(['mute', 'unmute']);
    expect(voice.state.micMuted).toBe(false);

    await voice.disconnect();
    expect(voice.state).toMatchObject({
      connection: 'disconnected',
      mic: 'off',
      userSpeaking: false,
    });
    voice.dispose();
    expect(room.listenerCount('activeSpeakersChanged')).toBe(0);
  });

  it('says why the microphone is off when LiveKit cannot get it', async () => {
    const { room, voice } = setup();
    room.micFailure = Object.assign(new Error('Permission denied'), { name: 'NotAllowedError' });
    await voice.connect({ mic: true });
    expect(voice.state).toMatchObject({ connection: 'connected', mic: 'error' });
    expect(voice.state.micError?.reason).toBe('denied');
  });

  it('dictates into a composer over the LiveKit transport', async () => {
    const { pair, room, voice } = setup();
    pair.agent.registerMethod('composer_start_dictation', () => '');
    pair.agent.registerMethod('composer_end_dictation', () =>
      JSON.stringify({ transcript: 'two kettles please' }),
    );
    const session = new ScenaroSession({
      transport: createLiveKitTransport(room),
      agentIdentity: 'agent-1',
      activity: false,
      config: { tools: [] },
    });
    session.start();
    await voice.connect();
    const dictation = new DictationController({ composer: session.composer, voice });
    expect(await dictation.start('')).toBe(true);
    expect(voice.state.mic).toBe('on');
    room.emit(
      'transcriptionReceived',
      [segment('u2', 'two kettles', false)],
      room.localParticipant,
    );
    expect(dictation.getSnapshot().interim).toBe('two kettles');
    expect(voice.transcript).toEqual([]);
    expect(await dictation.end()).toBe('two kettles please');
    session.stop();
  });
});
