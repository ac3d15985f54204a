/** Relay refusals added for clients' SDKs to read correctly (merged into MESSAGES). */
export const RELAY_MESSAGES = {
  relay_model_not_found: {
    zh: '模型 {model} 不存在，或分组 {group} 无权使用它',
    en: 'The model {model} does not exist or is not available to group {group}',
  },
  relay_channels_unavailable: {
    zh: '分组 {group} 下模型 {model} 的渠道暂时都不可用，请稍后再试',
    en: 'Every channel for model {model} in group {group} is unavailable right now; please try again later',
  },
  relay_upstream_channel_unavailable: {
    zh: '上游渠道暂时不可用，请稍后再试或联系管理员',
    en: 'The upstream channel is unavailable; please try again later or contact the administrator',
  },
  relay_route_not_found: {
    zh: '接口不存在：{method} {path}',
    en: 'Invalid URL ({method} {path})',
  },
  relay_method_not_allowed: {
    zh: '此接口不支持 {method} 方法',
    en: 'The method {method} is not allowed on this API',
  },
  relay_body_unparsable: {
    zh: '请求体不是有效的 JSON',
    en: 'The request body is not valid JSON',
  },
  relay_body_empty: {
    zh: '请求体为空，此接口需要 JSON 请求体',
    en: 'The request body is empty; this API expects a JSON body',
  },
  relay_content_type_unsupported: {
    zh: '不支持的 Content-Type：{type}，请使用 application/json',
    en: 'Unsupported Content-Type: {type}; send application/json',
  },
  relay_bad_request: {
    zh: '请求无效（HTTP {status}）',
    en: 'Bad request (HTTP {status})',
  },
  relay_response_not_found: {
    zh: '找不到 ID 为 {id} 的响应',
    en: "Response with id '{id}' not found.",
  },
  relay_response_resource_unsupported: {
    zh: '创建此响应的渠道不支持该操作',
    en: 'The channel that created this response does not support this operation',
  },
} as const satisfies Record<string, { zh: string; en: string }>;
