import { describeToolExamples } from '../../test-support/nemo-examples.js';
import { evaAirline } from './domain.js';

describeToolExamples('eva_airline', () => [evaAirline]);
