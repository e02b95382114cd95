/**
 * NeMo's qa tools: `SaveQuestionAnswerTool` pushes the question and answer as a
 * `<final_response>`; `GetCityWeatherTool` answers the same fixed weather for any city.
 *
 * @module
 */
import type { JsonObject, ToolContext } from '@scenaro/agent/scenario';
import { nemoParameters, nemoTool, pushFinalResponse, stringParam } from '../../common/tool-kit.js';

export const saveQuestionAnswerTool = nemoTool({
  name: 'SaveQuestionAnswerTool',
  description: 'Save a question and answer pair to the conversation history for future reference.',
  parameters: nemoParameters({
    question: stringParam('The question to that user asked.'),
    answer: stringParam("The agent's answer to the question."),
  }),
  kind: 'read',
  fixedSignature: true,
  execute: (args: JsonObject, context: ToolContext) => {
    pushFinalResponse(context, {
      question: args['question'] ?? null,
      answer: args['answer'] ?? null,
    });
    return { success: true, message: 'Question and answer logged.' };
  },
});

export const getCityWeatherTool = nemoTool({
  name: 'GetCityWeatherTool',
  // NeMo's description keeps its source indentation.
  description:
    '\n        Get the weather of a city. You need to provide the city name to get the weather.\n        ',
  parameters: nemoParameters({
    city_name: stringParam('The name of the city to get the weather of.'),
  }),
  kind: 'read',
  fixedSignature: true,
  execute: (args: JsonObject) => {
    return {
      city: args['city_name'] ?? null,
      weather: 'sunny',
      temperature: '20 degrees Celsius',
      uv_index: 'low',
    };
  },
});
