import { describeToolExamples } from '../../test-support/nemo-examples.js';
import { nemoDefaultSuites } from '../default-suites.js';
import { evaAirline } from '../eva-airline/domain.js';

describeToolExamples('fastbite', () => [evaAirline, ...nemoDefaultSuites]);
