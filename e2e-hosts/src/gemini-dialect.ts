import { arrayField, finalText, type ModelDialect, type ToolExchange } from './model-api.ts';

// The Gemini API (v1beta) as Gemini CLI 0.61.0 calls it: POST
// /v1beta/models/<model>:streamGenerateContent?alt=sse, answered with one SSE `data:` event holding a
// GenerateContentResponse (a plain :generateContent gets the same JSON); a shell call is a
// `functionCall` part of `run_shell_command`, its result a `functionResponse` part in the next request.

function parts(body: unknown, role: string): Record<string, unknown>[] {
  return arrayField(body, 'contents')
    .filter((content) => content.role === role)
    .flatMap((content) => (Array.isArray(content.parts) ? (content.parts as Record<string, unknown>[]) : []));
}

/** Gemini CLI's model API. */
export const geminiDialect: ModelDialect = {
  name: 'gemini',
  isTurn: (method, path) => method === 'POST' && /:(stream)?[gG]enerateContent$/.test(path),
  callsMade: (body) => parts(body, 'model').filter((part) => part.functionCall).length,
  offers: (body, step) =>
    arrayField(body, 'tools').some((tool) =>
      (Array.isArray(tool.functionDeclarations)
        ? (tool.functionDeclarations as { name?: string }[])
        : []
      ).some((declaration) => declaration.name === ('shell' in step ? 'run_shell_command' : 'read_file')),
    ),
  answer: (res, _body, step, id) => {
    const response = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: step
              ? [
                  {
                    functionCall:
                      'shell' in step
                        ? { id: `call_e2e_${id}`, name: 'run_shell_command', args: { command: step.shell } }
                        : { id: `call_e2e_${id}`, name: 'read_file', args: { file_path: step.read } },
                  },
                ]
              : [{ text: finalText }],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
      modelVersion: 'gemini-e2e',
    };
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`data: ${JSON.stringify(response)}\r\n\r\n`);
  },
  other: (res, method, path) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(method === 'POST' && path.endsWith(':countTokens') ? '{"totalTokens":1}' : '{}');
  },
  exchanges: (body) => {
    const responses = new Map(
      parts(body, 'user')
        .map(
          (part) => part.functionResponse as { id?: string; response?: Record<string, unknown> } | undefined,
        )
        .filter((response) => response?.id !== undefined)
        .map((response) => [String(response?.id), response?.response ?? {}]),
    );
    return parts(body, 'model').flatMap((part): ToolExchange[] => {
      const call = part.functionCall as
        | { id?: string; args?: { command?: string; file_path?: string } }
        | undefined;
      const response = call?.id === undefined ? undefined : responses.get(call.id);
      if (call === undefined || response === undefined) return [];
      const text = response.error ?? response.output;
      return [
        {
          callId: String(call.id),
          command: call.args?.command ?? call.args?.file_path ?? '',
          output: typeof text === 'string' ? text : JSON.stringify(response),
        },
      ];
    });
  },
};
