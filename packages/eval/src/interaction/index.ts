/**
 * The full-duplex interaction panel: response, yield, interruption, selectivity, dead air and
 * latency split by tool use, from a scenario's timeline; pooled over a run; rendered as HTML.
 *
 * @module
 */
export { interactionMetrics, aggregateInteraction, NA as INTERACTION_NA } from './panel.js';
export { UNSCORED as INTERACTION_UNSCORED } from './events.js';
export { timelineFromAudio } from './timeline.js';
export type { TimelineExtras } from './timeline.js';
export { interactionPanelHtml, interactionComparisonHtml } from './html.js';
export type { PresetPanel } from './html.js';
export { DEFAULT_WINDOWS, INTERACTION_METRICS_VERSION } from './types.js';
export type {
  AgentSpeech,
  CallerEvent,
  CallerEventKind,
  CallerSpeech,
  CompositeFigure,
  DeadAir,
  DeadAirStats,
  InteractionCounts,
  InteractionPanel,
  InteractionScenarioPanel,
  InteractionTimeline,
  InteractionWindows,
  MeanFigure,
  MeasureFigure,
  RateFigure,
  ScoredCategory,
  ScoredEvent,
  ScoredOutcome,
  TimeSpan,
  ToolCall,
} from './types.js';
