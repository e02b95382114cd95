/**
 * NeMo's qa tools: `SaveQuestionAnswerTool` pushes the question and answer as a
 * `<final_response>`; `GetCityWeatherTool` answers the same fixed weather for any city.
 *
 * @module
 */
import type { JsonObject, ToolContext } from '@scenaro/agent';
import { nemoTool, pushFinalResponse, rejectUnexpectedArguments } from '../../common/tool-kit.js';

export const saveQuestionAnswerTool = nemoTool({
  name: 'SaveQuestionAnswerTool',
  description: 'Save a question and answer pair to the conversation history for future reference.',
  parameters: {
    type: 'object',
    properties: {
      question: { type: 'string', description: 'The question to that user asked.' },
      answer: { type: 'string', description: "The agent's answer to the question." },
    },
    required: ['question', 'answer'],
  },
  kind: 'read',
  execute: (args: JsonObject, context: ToolContext) => {
    rejectUnexpectedArguments('SaveQuestionAnswerTool', args, ['question', 'answer']);
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
  parameters: {
    type: 'object',
    properties: {
      city_name: { type: 'string', description: 'The name of the city to get the weather of.' },
    },
    required: ['city_name'],
  },
  kind: 'read',
  execute: (args: JsonObject) => {
    rejectUnexpectedArguments('GetCityWeatherTool', args, ['city_name']);
    return {
      city: args['city_name'] ?? null,
      weather: 'sunny',
      temperature: '20 degrees Celsius',
      uv_index: 'low',
    };
  },
});
