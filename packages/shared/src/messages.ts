/**
 * Server messages for business failures, in zh (default) and en here, the other languages in messages/<lang>.ts.
 * The server picks the language from Accept-Language; the console also loads these so client-side validation says
 * exactly the same words. `{name}` placeholders are filled from params.
 */
import { CHANNEL_FORM_MESSAGES } from './channels/channel-form.js';
import { CUSTOM_OAUTH_MESSAGES } from './custom-oauth/messages.js';
import { FALLBACK_MESSAGES } from './fallback/messages.js';
import { acceptLanguageTags, type Language, negotiateLanguage } from './languages.js';
import { LIMIT_MESSAGES } from './limits/messages.js';
import { TRANSLATED_MESSAGES } from './messages/index.js';
import { PASSKEY_MESSAGES } from './passkey/messages.js';
import { CARD_PAYMENT_MESSAGES } from './payments/messages.js';
import { RELAY_MESSAGES } from './relay/messages.js';
import { SUBSCRIPTION_MESSAGES } from './subscriptions/messages.js';

export const MESSAGES = {
  ...CHANNEL_FORM_MESSAGES,
  ...LIMIT_MESSAGES,
  ...FALLBACK_MESSAGES,
  ...CARD_PAYMENT_MESSAGES,
  ...RELAY_MESSAGES,
  ...PASSKEY_MESSAGES,
  ...SUBSCRIPTION_MESSAGES,
  ...CUSTOM_OAUTH_MESSAGES,
  // generic
  invalid_params: { zh: '无效的参数', en: 'Invalid parameters' },
  internal_error: { zh: '服务器内部错误，请联系管理员', en: 'Internal server error, please contact the administrator' },
  not_found: { zh: '资源不存在', en: 'Not found' },
  too_many_requests: { zh: '请求过于频繁，请稍后再试', en: 'Too many requests, please try again later' },
  database_unavailable: { zh: '数据库暂时不可用，请稍后再试', en: 'The database is unavailable, try again shortly' },
  // auth and sessions
  not_logged_in: {
    zh: '未登录或登录已过期，请重新登录',
    en: 'Not logged in or the login has expired, please log in again',
  },
  user_header_mismatch: {
    zh: '无权进行此操作，New-Api-User 与当前登录用户不匹配',
    en: 'Unauthorized: New-Api-User does not match the signed-in user',
  },
  user_header_missing: {
    zh: '无权进行此操作，未提供 New-Api-User',
    en: 'Unauthorized: the New-Api-User header is missing',
  },
  access_token_invalid: { zh: '无权进行此操作，access token 无效', en: 'Unauthorized: invalid access token' },
  permission_denied: { zh: '无权进行此操作，权限不足', en: 'Permission denied' },
  user_banned: { zh: '用户已被封禁', en: 'This user has been banned' },
  username_password_required: { zh: '请输入用户名和密码！', en: 'Please enter your username and password!' },
  login_failed: { zh: '用户名或密码错误，或用户已被封禁', en: 'Wrong username or password, or the user is banned' },
  password_login_disabled: { zh: '管理员关闭了密码登录', en: 'The administrator has disabled password login' },
  saved: { zh: '保存成功', en: 'Saved' },
  login_success: { zh: '登录成功！', en: 'Logged in!' },
  logout_success: { zh: '已退出登录', en: 'Logged out' },
  // setup
  setup_required: {
    zh: '系统尚未初始化，请先完成初始化设置',
    en: 'The system is not initialised yet, please complete the setup first',
  },
  setup_done_already: { zh: '系统已经初始化完成', en: 'The system has already been initialised' },
  setup_username_required: { zh: '请输入管理员用户名', en: 'Please enter the admin username' },
  setup_username_too_long: { zh: '用户名长度不能超过12个字符', en: 'The username must be at most 12 characters' },
  setup_mode_conflict: {
    zh: '自用模式和演示站点模式不能同时开启',
    en: 'Self-use mode and demo site mode cannot both be on',
  },
  setup_success: { zh: '系统初始化完成', en: 'System initialised' },
  setup_token_required: {
    zh: '请输入设置令牌（首次启动时写在服务器日志中）',
    en: 'Enter the setup token (written to the server log at first start)',
  },
  setup_token_invalid: { zh: '设置令牌不正确', en: 'The setup token is not correct' },
  checkin_disabled: { zh: '签到功能未启用', en: 'Check-in is not enabled' },
  checkin_already_done: { zh: '今天已经签到过了', en: 'You have already checked in today' },
  checkin_success: { zh: '签到成功', en: 'Checked in' },
  checkin_month_invalid: { zh: '月份格式应为 YYYY-MM', en: 'The month must be written YYYY-MM' },
  two_fa_code_required: { zh: '请输入验证码或备用码', en: 'Enter a code or a backup code' },
  two_fa_code_invalid: { zh: '验证码或备用码错误，请重试', en: 'The code or backup code is wrong, please retry' },
  two_fa_locked: {
    zh: '验证码错误次数过多，请在 {seconds} 秒后重试',
    en: 'Too many wrong codes; retry in {seconds} seconds',
  },
  two_fa_already_enabled: {
    zh: '用户已启用2FA，请先禁用后重新设置',
    en: 'Two-factor sign-in is already on; turn it off before setting it up again',
  },
  two_fa_not_enabled: { zh: '用户未启用2FA', en: 'Two-factor sign-in is not on for this account' },
  two_fa_setup_first: { zh: '请先完成2FA初始化设置', en: 'Start the two-factor setup first' },
  two_fa_setup_started: {
    zh: '2FA设置初始化成功，请使用认证器扫描二维码并输入验证码完成设置',
    en: 'Scan the QR code with an authenticator app and enter its code to finish',
  },
  two_fa_enabled: { zh: '两步验证启用成功', en: 'Two-factor sign-in is on' },
  two_fa_disabled: { zh: '两步验证已禁用', en: 'Two-factor sign-in is off' },
  two_fa_backup_codes_regenerated: {
    zh: '备用码重新生成成功',
    en: 'New backup codes made; the old ones no longer work',
  },
  two_fa_login_required: { zh: '请输入两步验证码', en: 'Enter your two-factor code' },
  two_fa_flow_expired: { zh: '会话已过期，请重新登录', en: 'The sign-in has expired, please sign in again' },
  two_fa_admin_reset: { zh: '用户2FA已被强制禁用', en: 'The user’s two-factor sign-in was reset' },
  two_fa_same_level: {
    zh: '无权操作同级或更高级用户的2FA设置',
    en: 'You cannot change the two-factor sign-in of a user of your level or above',
  },
  two_fa_admin_setup_required: {
    zh: '管理员账户须先启用两步验证，请在个人设置中完成设置',
    en: 'Admin accounts must turn on two-factor sign-in first: set it up on your personal page',
  },
  password_too_short: { zh: '密码长度不得小于 8 位！', en: 'The password must be at least 8 characters!' },
  password_too_long: { zh: '密码长度不得大于 20 位！', en: 'The password must be at most 20 characters!' },
  passwords_do_not_match: { zh: '两次输入的密码不一致', en: 'The two passwords do not match' },
  // options
  option_unknown: { zh: '未知的配置项：{key}', en: 'Unknown option: {key}' },
  option_not_bool: { zh: '{key} 必须是 true 或 false', en: '{key} must be true or false' },
  option_not_int: { zh: '{key} 必须是整数', en: '{key} must be an integer' },
  option_not_number: { zh: '{key} 必须是数字', en: '{key} must be a number' },
  option_below_min: { zh: '{key} 不能小于 {min}', en: '{key} must be at least {min}' },
  option_above_max: { zh: '{key} 不能大于 {max}', en: '{key} must be at most {max}' },
  option_not_url: {
    zh: '{key} 必须是以 http:// 或 https:// 开头的地址',
    en: '{key} must be an http:// or https:// address',
  },
  option_not_enum: { zh: '{key} 只能是以下值之一：{values}', en: '{key} must be one of: {values}' },
  option_invalid_json: { zh: '{key} 不是合法的 JSON 字符串', en: '{key} is not a valid JSON string' },
  option_bad_json_shape: { zh: '{key} 的 JSON 结构不正确', en: '{key} has the wrong JSON structure' },
  option_bad_gemini_safety: {
    zh: '{key} 的取值只能是 OFF、BLOCK_NONE、BLOCK_ONLY_HIGH、BLOCK_MEDIUM_AND_ABOVE、BLOCK_LOW_AND_ABOVE 或 HARM_BLOCK_THRESHOLD_UNSPECIFIED',
    en: '{key} values must be OFF, BLOCK_NONE, BLOCK_ONLY_HIGH, BLOCK_MEDIUM_AND_ABOVE, BLOCK_LOW_AND_ABOVE or HARM_BLOCK_THRESHOLD_UNSPECIFIED',
  },
  option_bad_amount_list: {
    zh: '{key} 必须是由正整数组成的 JSON 数组，例如 [10, 20, 50]',
    en: '{key} must be a JSON array of positive whole numbers, e.g. [10, 20, 50]',
  },
  option_bad_amount_discounts: {
    zh: '{key} 必须是“充值数量 → 折扣系数”的 JSON 对象：数量为正整数，系数大于 0 且不超过 1，例如 {"100": 0.95}',
    en: '{key} must be a JSON object of top-up amount → price factor: amounts are positive whole numbers, factors above 0 and at most 1, e.g. {"100": 0.95}',
  },
  option_bad_responses_policy: {
    zh: '{key} 必须是形如 {"enabled": true, "all_channels": false, "channel_ids": [1], "channel_types": [1], "model_patterns": ["^o1-pro"]} 的 JSON 对象，模型规则须为有效的正则表达式',
    en: '{key} must be a JSON object like {"enabled": true, "all_channels": false, "channel_ids": [1], "channel_types": [1], "model_patterns": ["^o1-pro"]}, with valid regular expressions as model patterns',
  },
  option_bad_domain: { zh: '{value} 不是合法的域名', en: '{value} is not a valid domain' },
  option_duplicate_domain: { zh: '该域名已存在于白名单中', en: 'This domain is already in the whitelist' },
  model_ratio_reset: { zh: '模型倍率已重置为默认值', en: 'Model ratios were reset to the defaults' },
  option_requires: { zh: '开启 {key} 之前请先填写 {other}', en: 'Fill in {other} before turning on {key}' },
  option_value_missing: { zh: '未提供配置值，未做任何修改', en: 'No value was given: nothing was changed' },
  option_value_not_string: {
    zh: '配置值必须是字符串、数字或布尔值',
    en: 'The option value must be a string, number or boolean',
  },
  // tokens
  token_name_required: { zh: '请输入令牌名称', en: 'Please enter a token name' },
  token_name_too_long: {
    zh: '令牌名称过长（最多 50 个字符）',
    en: 'The token name is too long (at most 50 characters)',
  },
  token_quota_invalid: { zh: '额度必须是不小于 0 的整数', en: 'The quota must be a whole number of at least 0' },
  token_expiry_invalid: { zh: '过期时间格式错误！', en: 'Invalid expiry time!' },
  token_allow_ips_invalid: {
    zh: 'IP 白名单格式错误：每行一个 IP 或 CIDR',
    en: 'Invalid IP allow list: one IP or CIDR per line',
  },
  token_count_invalid: {
    zh: '批量创建数量必须是 1 到 100 之间的整数',
    en: 'The batch count must be a whole number from 1 to 100',
  },
  token_group_unusable: { zh: '无权使用分组 {group}', en: 'You may not use the group {group}' },
  token_not_found: { zh: '令牌不存在', en: 'Token not found' },
  token_limit_reached: { zh: '令牌数量已达上限（{max}）', en: 'You have reached the maximum number of tokens ({max})' },
  token_expired_cannot_enable: {
    zh: '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期',
    en: 'The token has expired and cannot be enabled; change its expiry time or make it never expire first',
  },
  token_exhausted_cannot_enable: {
    zh: '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度',
    en: 'The token has no quota left and cannot be enabled; raise its quota or make it unlimited first',
  },
  token_status_invalid: { zh: '无效的令牌状态', en: 'Invalid token status' },
  no_usable_groups: { zh: '管理员未设置用户可选分组', en: 'The administrator has not set any user-selectable groups' },
  // third-party sign-in and binding
  oauth_provider_disabled: {
    zh: '管理员未开启通过 {provider} 登录以及注册',
    en: 'The administrator has not enabled sign-in and registration with {provider}',
  },
  oauth_not_configured: {
    zh: '{provider} 登录的配置不完整，请联系管理员',
    en: 'Sign-in with {provider} is not fully configured, please contact the administrator',
  },
  oauth_state_invalid: {
    zh: 'state 无效或已过期，请重新发起登录',
    en: 'The state is invalid or has expired, please start the sign-in again',
  },
  oauth_code_required: { zh: '缺少授权码，请重新发起登录', en: 'The authorisation code is missing, please try again' },
  oauth_provider_failed: { zh: '{provider} 授权失败：{reason}', en: 'Sign-in with {provider} failed: {reason}' },
  oauth_provider_unreachable: {
    zh: '无法连接 {provider}：{reason}',
    en: 'Could not reach {provider}: {reason}',
  },
  oauth_already_bound: {
    zh: '该 {provider} 账户已被其他用户绑定',
    en: 'This {provider} account is already bound to another user',
  },
  oauth_bind_account_changed: {
    zh: '发起绑定的账户已退出或已切换，请重新绑定',
    en: 'The account that started this binding has signed out or changed, please bind again',
  },
  oauth_account_inactive: {
    zh: '该 {provider} 账户未激活或已被禁言',
    en: 'This {provider} account is not active or has been silenced',
  },
  wechat_code_required: { zh: '请输入验证码', en: 'Please enter the verification code' },
  telegram_data_invalid: {
    zh: 'Telegram 登录数据校验失败',
    en: 'The Telegram login data failed verification',
  },
  telegram_data_expired: {
    zh: 'Telegram 登录数据已过期，请重新登录',
    en: 'The Telegram login data has expired, please sign in again',
  },
  oidc_well_known_invalid: {
    zh: 'Well-Known URL 必须以 http:// 或 https:// 开头',
    en: 'The well-known URL must start with http:// or https://',
  },
  oidc_discovery_failed: { zh: '获取 OIDC 配置失败：{reason}', en: 'Could not fetch the OIDC configuration: {reason}' },
  // channels
  channel_not_found: { zh: '渠道不存在，请刷新后重试', en: 'Channel not found, please refresh' },
  channel_tag_required: { zh: '标签不能为空', en: 'The tag cannot be empty' },
  channel_tag_not_found: { zh: '没有标签为 {tag} 的渠道', en: 'No channel has the tag {tag}' },
  channel_tag_no_changes: { zh: '没有任何修改', en: 'Nothing was changed' },
  channel_select_first: { zh: '请先选择渠道', en: 'Please select channels first' },
  channel_test_unsupported: { zh: '该渠道类型暂不支持测试', en: 'Testing is not supported for this channel type yet' },
  channel_test_all_started: {
    zh: '已成功开始测试所有渠道，请稍后刷新查看结果',
    en: 'Testing all channels has started; refresh later to see the results',
  },
  channel_test_all_running: { zh: '渠道测试正在进行中', en: 'A channel test run is already in progress' },
  channel_balance_unsupported: {
    zh: '该渠道类型不支持查询余额',
    en: 'Balance queries are not supported for this channel type',
  },
  channel_balance_updated: {
    zh: '已更新 {updated}/{total} 个渠道的余额',
    en: 'Updated the balance of {updated}/{total} channels',
  },
  channel_upstream_failed: { zh: '请求上游失败：{reason}', en: 'The upstream request failed: {reason}' },
  channel_fetch_models_key_required: { zh: '请填写密钥', en: 'Please fill in the key' },
  channel_fetch_private_refused: {
    zh: '已拒绝访问 {host}：这是内网地址。如需让服务端访问内网上游（模型列表、余额），请 root 用户在「系统设置 → 通用设置」中开启「允许服务端请求访问内网地址」（fetch_setting.allow_private_ip）',
    en: 'Refused to reach {host}: it is a private address. To let the server reach private upstreams (model lists, balances), root can turn on "Let server-side fetches reach private addresses" under System settings → General (fetch_setting.allow_private_ip)',
  },
  // price sync
  ratio_config_disabled: { zh: '倍率配置接口未启用', en: 'The ratio config API is not enabled' },
  ratio_sync_url_required: { zh: '请填写网关地址', en: 'Please fill in the gateway address' },
  ratio_sync_source_failed: {
    zh: '读取价格来源 {source} 失败：{reason}',
    en: 'Reading prices from {source} failed: {reason}',
  },
  ratio_sync_source_unrecognized: {
    zh: '{source} 返回的不是价格列表',
    en: '{source} did not answer with a price list',
  },
  ratio_sync_upload_invalid: {
    zh: '上传的文件不是倍率配置（需要 model_ratio、completion_ratio、cache_ratio 或 model_price）',
    en: 'The uploaded file is not a ratio config (it needs model_ratio, completion_ratio, cache_ratio or model_price)',
  },
  ratio_sync_nothing_selected: { zh: '请至少选择一项变更', en: 'Select at least one change' },
  ratio_sync_applied: { zh: '已应用 {count} 项价格变更', en: 'Applied {count} price changes' },
  // relay
  relay_token_missing: { zh: '未提供令牌', en: 'No API key was provided' },
  relay_token_invalid: { zh: '无效的令牌', en: 'Invalid API key' },
  relay_token_disabled: { zh: '该令牌状态不可用', en: 'This API key is disabled' },
  relay_token_expired: { zh: '该令牌已过期', en: 'This API key has expired' },
  relay_token_exhausted: { zh: '该令牌额度已用尽', en: 'This API key has no quota left' },
  relay_ip_not_allowed: {
    zh: '您的 IP 不在令牌允许访问的列表中',
    en: 'Your IP address is not allowed to use this API key',
  },
  relay_group_forbidden: { zh: '无权访问 {group} 分组', en: 'You may not use the group {group}' },
  relay_group_deprecated: { zh: '分组 {group} 已被弃用', en: 'The group {group} is no longer available' },
  relay_model_forbidden: { zh: '该令牌无权访问模型 {model}', en: 'This API key may not use the model {model}' },
  relay_channel_pin_forbidden: { zh: '普通用户不支持指定渠道', en: 'Only administrators may choose a channel' },
  relay_channel_pin_unavailable: {
    zh: '指定的渠道 {id} 不存在或已禁用',
    en: 'Channel {id} does not exist or is disabled',
  },
  relay_no_channel: {
    zh: '分组 {group} 下模型 {model} 无可用渠道',
    en: 'No available channel for model {model} in group {group}',
  },
  relay_model_unpriced: {
    zh: '模型 {model} 倍率或价格未配置，请联系管理员设置',
    en: 'The model {model} has no price set; please ask the administrator to set one',
  },
  relay_user_quota: { zh: '用户额度不足', en: 'Your account does not have enough quota' },
  relay_token_quota: { zh: '令牌额度不足', en: 'This API key does not have enough quota' },
  relay_body_invalid: { zh: '请求体格式错误：{reason}', en: 'Invalid request body: {reason}' },
  relay_not_implemented: { zh: '该接口尚未实现', en: 'This API is not implemented' },
  relay_upstream_unavailable: {
    zh: '上游服务暂时无法连接，请稍后再试',
    en: 'The upstream service could not be reached; please try again later',
  },
  relay_upstream_status: {
    zh: '上游服务返回错误（HTTP {status}），请稍后再试',
    en: 'The upstream service answered with an error (HTTP {status}); please try again later',
  },
  relay_upstream_timeout: {
    zh: '上游服务响应超时，请稍后再试',
    en: 'The upstream service did not answer in time; please try again later',
  },
  relay_upstream_interrupted: {
    zh: '上游服务中途断开，回答不完整，请稍后再试',
    en: 'The upstream service stopped mid-answer; the answer is incomplete, please try again later',
  },
  relay_upstream_bad_response: {
    zh: '上游返回了无法解析的响应',
    en: 'The upstream returned a response that could not be read',
  },
  relay_upstream_too_large: {
    zh: '上游返回的响应过大，已中止读取，请稍后再试',
    en: 'The upstream returned a response too large to relay; it was not read to the end, please try again later',
  },
  relay_conversion_unsupported: {
    zh: '所选渠道的接口格式无法表达请求中的 {what}，请改用支持它的渠道或模型',
    en: 'The channel serving this model cannot express {what} from your request; use a model whose channel supports it',
  },
  relay_channel_unsupported: { zh: '该渠道类型暂不支持此接口', en: 'This channel type does not support this API yet' },
  log_target_required: { zh: '请选择要清除的日志截止时间', en: 'Please choose the time before which logs are cleared' },
  relay_sensitive_words: { zh: '请求包含敏感词：{word}', en: 'The request contains a sensitive word: {word}' },
  relay_rate_limited: {
    zh: '您已达到请求数限制：{minutes} 分钟内最多 {count} 次',
    en: 'Request limit reached: at most {count} requests in {minutes} minutes',
  },
  relay_rate_limited_success: {
    zh: '您已达到成功请求数限制：{minutes} 分钟内最多成功 {count} 次',
    en: 'Successful request limit reached: at most {count} successful requests in {minutes} minutes',
  },
  cross_site_refused: {
    zh: '拒绝来自其他网站的请求：请在本站页面中操作',
    en: 'Requests from another site are refused: use this site’s own pages',
  },
  form_body_refused: {
    zh: '此接口只接受 JSON 请求体',
    en: 'This API only accepts a JSON body',
  },
  body_too_large: {
    zh: '请求体过大：此接口最多接受 {limit}',
    en: 'The request body is too large: this API accepts at most {limit}',
  },
  body_too_deep: {
    zh: '请求体嵌套层级过深',
    en: 'The request body is nested too deeply',
  },
  web_rate_limited_page: {
    zh: '此地址在短时间内打开页面过于频繁，请在 {seconds} 秒后刷新重试。',
    en: 'Pages were opened from this address too often in a short time. Reload this page in {seconds} seconds.',
  },
  global_rate_limited: {
    zh: '请求过于频繁：同一地址每 {seconds} 秒最多 {max} 次，请稍后再试',
    en: 'Too many requests: at most {max} per {seconds} seconds from one address; please try again later',
  },
  // drawing (Midjourney) and async (Suno) tasks
  task_field_required: { zh: '{field} 不能为空', en: '{field} is required' },
  task_action_invalid: { zh: '不支持的操作：{action}', en: 'Unsupported action: {action}' },
  task_not_found: { zh: '任务不存在', en: 'Task not found' },
  task_origin_not_success: {
    zh: '原任务尚未成功，暂不能执行此操作',
    en: 'The original task has not succeeded yet, so this action is not possible',
  },
  task_channel_disabled: { zh: '该任务所属渠道已被禁用', en: 'The channel of this task is disabled' },
  task_upstream_refused: { zh: '上游拒绝了任务：{reason}', en: 'The upstream refused the task: {reason}' },
  task_image_unavailable: { zh: '图片暂不可用', en: 'The image is not available' },
  // video tasks
  video_param_invalid: { zh: '参数 {field} 无效：{reason}', en: 'Invalid parameter {field}: {reason}' },
  video_param_unsupported: {
    zh: '模型 {model} 不支持参数 {field}',
    en: 'The model {model} cannot honour the parameter {field}',
  },
  video_not_ready: { zh: '视频尚未生成完成（状态：{status}）', en: 'The video is not ready (status: {status})' },
  video_still_running: {
    zh: '视频仍在生成中，完成后才能删除',
    en: 'The video is still being generated; it can be deleted once it has finished',
  },
  video_content_unavailable: { zh: '视频文件暂不可用', en: 'The video file is not available' },
  user_not_found: { zh: '用户不存在', en: 'User not found' },
  // model catalogue
  catalogue_model_name_required: { zh: '请输入模型名称', en: 'Please enter the model name' },
  catalogue_model_name_taken: { zh: '模型名称已存在', en: 'A model with this name already exists' },
  catalogue_vendor_name_required: { zh: '请输入供应商名称', en: 'Please enter the vendor name' },
  catalogue_vendor_name_taken: { zh: '供应商名称已存在', en: 'A vendor with this name already exists' },
  catalogue_vendor_unknown: { zh: '供应商不存在', en: 'The vendor does not exist' },
  catalogue_not_found: { zh: '记录不存在', en: 'Not found' },
  catalogue_field_too_long: { zh: '内容过长', en: 'The text is too long' },
  catalogue_price_invalid: { zh: '价格或倍率必须是非负数', en: 'Prices and ratios must be non-negative numbers' },
  catalogue_endpoints_invalid: { zh: '端点必须是字符串数组', en: 'Endpoints must be a list of endpoint names' },
  catalogue_context_invalid: {
    zh: '上下文长度必须是非负整数',
    en: 'The context length must be a non-negative whole number',
  },
  // redemption codes and wallet
  redemption_name_required: { zh: '请输入兑换码名称', en: 'Please enter a name for the codes' },
  redemption_name_too_long: { zh: '兑换码名称过长', en: 'The name is too long' },
  redemption_quota_invalid: { zh: '额度必须是正整数', en: 'The quota must be a positive whole number' },
  redemption_expiry_invalid: { zh: '过期时间格式错误！', en: 'Invalid expiry time!' },
  redemption_count_invalid: {
    zh: '生成数量必须是 1 到 100 之间的整数',
    en: 'The count must be a whole number from 1 to 100',
  },
  redemption_not_found: { zh: '兑换码不存在', en: 'Redemption code not found' },
  redemption_used_cannot_edit: { zh: '兑换码已被使用，无法修改', en: 'This code has been used and cannot be changed' },
  redemption_used_cannot_enable: {
    zh: '兑换码已被使用，无法启用',
    en: 'This code has been used and cannot be enabled',
  },
  redemption_status_invalid: { zh: '无效的兑换码状态', en: 'Invalid code status' },
  redemption_key_required: { zh: '请输入兑换码！', en: 'Please enter a redemption code!' },
  redemption_invalid: { zh: '无效的兑换码', en: 'Invalid redemption code' },
  redemption_used: { zh: '该兑换码已被使用', en: 'This redemption code has already been used' },
  redemption_disabled: { zh: '该兑换码已被禁用', en: 'This redemption code is disabled' },
  redemption_expired: { zh: '该兑换码已过期', en: 'This redemption code has expired' },
  redemption_success: { zh: '兑换成功', en: 'Redeemed' },
  pay_not_enabled: { zh: '管理员未开启在线充值', en: 'The administrator has not enabled online top-up' },
  pay_amount_too_small: { zh: '充值数量不能小于 {min}', en: 'The top-up amount cannot be less than {min}' },
  pay_amount_invalid: { zh: '充值数量必须是正整数', en: 'The top-up amount must be a positive whole number' },
  pay_method_invalid: { zh: '不支持的支付方式', en: 'Unsupported payment method' },
  pay_server_address_missing: { zh: '请先填写服务器地址', en: 'Please set the server address first' },
  data_time_invalid: { zh: '时间格式错误', en: 'Invalid time format' },
  data_range_invalid: { zh: '开始时间不能晚于结束时间', en: 'The start time cannot be after the end time' },
  // user administration
  user_username_password_required: { zh: '用户名和密码不能为空！', en: 'Username and password must not be empty!' },
  user_username_too_long: { zh: '用户名长度不能超过 20 个字符', en: 'The username must be at most 20 characters' },
  user_display_name_too_long: {
    zh: '显示名称长度不能超过 20 个字符',
    en: 'The display name must be at most 20 characters',
  },
  user_quota_invalid: { zh: '额度必须是整数', en: 'The quota must be a whole number' },
  user_email_invalid: { zh: '邮箱地址格式错误', en: 'Invalid e-mail address' },
  user_username_taken: { zh: '用户名已存在', en: 'This username is already taken' },
  user_created: { zh: '用户账户创建成功！', en: 'User account created!' },
  user_updated: { zh: '用户信息更新成功！', en: 'User updated!' },
  user_action_done: { zh: '操作成功完成！', en: 'Done!' },
  user_same_or_higher: {
    zh: '无权操作同级或更高权限的用户',
    en: 'You cannot act on a user with the same or a higher role',
  },
  user_root_only_promote: {
    zh: '只有超级管理员可以提升用户为管理员',
    en: 'Only the super admin can promote users to admin',
  },
  user_already_admin: { zh: '该用户已经是管理员', en: 'This user is already an admin' },
  user_already_common: { zh: '该用户已经是普通用户', en: 'This user is already an ordinary user' },
  user_root_protected: { zh: '无法禁用或删除超级管理员', en: 'The super admin cannot be disabled or deleted' },
  user_deleted: { zh: '该用户已注销', en: 'This user has been deregistered' },
  // personal settings
  self_original_password_required: { zh: '请输入原密码', en: 'Please enter your current password' },
  self_password_same: { zh: '新密码不能与原密码相同', en: 'The new password must differ from the current one' },
  self_original_password_not_sent: {
    zh: '修改密码需要输入原密码，而当前页面没有发送原密码：请使用“忘记密码”重置，或在本网关自带的控制台中修改',
    en: 'Changing the password needs the current password, which this page did not send: reset it with "Forgot password", or change it in this gateway\'s own console',
  },
  self_original_password_wrong: { zh: '原密码错误', en: 'The current password is wrong' },
  self_password_changed: { zh: '密码修改成功！', en: 'Password changed!' },
  self_deleted: { zh: '账户已删除！', en: 'Account deleted!' },
  self_root_cannot_delete: {
    zh: '超级管理员不能删除自己的账户',
    en: 'The super admin cannot delete their own account',
  },
  setting_threshold_invalid: {
    zh: '提醒阈值必须是不小于 0 的整数',
    en: 'The warning threshold must be a whole number of at least 0',
  },
  setting_webhook_private: {
    zh: 'Webhook 地址指向内网、本机或保留地址，无法接收通知，请填写公网地址',
    en: 'The webhook address points at a private, local or reserved address and cannot receive notices; use a public address',
  },
  setting_webhook_unresolved: {
    zh: 'Webhook 地址的域名无法解析，请检查后重试',
    en: 'The webhook address’s host name does not resolve; check it and try again',
  },
  setting_webhook_https: { zh: 'Webhook 地址必须以 https:// 开头', en: 'The webhook URL must start with https://' },
  setting_saved: { zh: '通知设置已更新', en: 'Notification settings updated' },
  aff_transfer_invalid: { zh: '划转金额必须是正整数', en: 'The amount must be a positive whole number' },
  aff_transfer_min: { zh: '划转金额最低为 {min}', en: 'The minimum transfer is {min}' },
  aff_transfer_insufficient: { zh: '邀请额度不足', en: 'Not enough invitation quota' },
  aff_transfer_done: { zh: '划转成功', en: 'Transferred' },
  created_count: { zh: '已创建 {count} 个', en: 'Created {count}' },
  updated: { zh: '更新成功', en: 'Updated' },
  deleted_count: { zh: '已删除 {count} 项', en: 'Deleted {count} items' },
  // registration, e-mail verification, password reset, human check
  register_disabled: { zh: '管理员关闭了新用户注册', en: 'The administrator has closed registration' },
  password_register_disabled: {
    zh: '管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册',
    en: 'The administrator has disabled registration with a password; please register with a third-party account',
  },
  register_email_required: {
    zh: '管理员开启了邮箱验证，请输入邮箱地址和验证码',
    en: 'E-mail verification is on: please enter your e-mail address and the verification code',
  },
  register_username_taken: { zh: '用户名已存在，或已注销', en: 'This username is taken or was deregistered' },
  register_success: { zh: '注册成功！', en: 'Registered!' },
  email_required: { zh: '请输入邮箱地址', en: 'Please enter your e-mail address' },
  email_taken: { zh: '邮箱地址已被占用', en: 'This e-mail address is already in use' },
  email_domain_not_allowed: {
    zh: '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中',
    en: 'The administrator only allows certain e-mail domains, and yours is not one of them',
  },
  email_alias_not_allowed: {
    zh: '管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。',
    en: 'The administrator does not allow e-mail aliases; your address was refused because it contains special symbols.',
  },
  email_bind_fields_required: { zh: '请输入邮箱地址和验证码', en: 'Please enter the e-mail address and the code' },
  email_bound: { zh: '邮箱账户绑定成功！', en: 'E-mail address bound!' },
  verification_code_invalid: { zh: '验证码错误或已过期', en: 'The verification code is wrong or has expired' },
  verification_sent: {
    zh: '验证码发送成功，请检查你的邮箱！',
    en: 'The verification code was sent, please check your mailbox!',
  },
  verification_too_frequent: {
    zh: '发送过于频繁，请 30 秒后再试',
    en: 'Sent too often, please try again in 30 seconds',
  },
  smtp_not_configured: {
    zh: '管理员未配置 SMTP 服务，无法发送邮件',
    en: 'The administrator has not set up SMTP, so no e-mail can be sent',
  },
  mail_send_failed: {
    zh: '邮件发送失败，请稍后重试或联系管理员',
    en: 'The e-mail could not be sent; please try again later or contact the administrator',
  },
  reset_server_address_missing: {
    zh: '管理员未设置服务器地址，无法发送重置链接',
    en: 'The administrator has not set the server address, so no reset link can be sent',
  },
  reset_mail_sent: {
    zh: '如果该邮箱已注册，重置邮件已发送，请检查你的邮箱！',
    en: 'If this e-mail address belongs to an account, a reset mail is on its way: please check your mailbox!',
  },
  reset_link_invalid: { zh: '重置链接非法或已过期', en: 'The reset link is invalid or has expired' },
  reset_done: { zh: '密码已重置，新密码已生成', en: 'Your password was reset and a new one generated' },
  turnstile_pending: {
    zh: '请稍后几秒重试，Turnstile 正在检查用户环境！',
    en: 'Please retry in a few seconds: Turnstile is still checking your browser!',
  },
  turnstile_failed: {
    zh: 'Turnstile 校验失败，请刷新重试！',
    en: 'The Turnstile check failed, please refresh and retry!',
  },
} as const satisfies Record<string, { zh: string; en: string }>;

export type MessageCode = keyof typeof MESSAGES;

export function isMessageCode(code: string): code is MessageCode {
  return Object.hasOwn(MESSAGES, code);
}

/** A message's template in one language: zh and en live above, the others in messages/<lang>.ts. */
export function messageTemplate(code: MessageCode, lang: Language): string {
  if (lang === 'zh' || lang === 'en') return MESSAGES[code][lang];
  // A catalogue that lacks a key does not type-check; English stands in should one slip through at run time.
  return TRANSLATED_MESSAGES[lang][code] ?? MESSAGES[code].en;
}

export function translate(code: MessageCode, lang: Language, params?: Record<string, string | number>): string {
  const template = messageTemplate(code, lang);
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/**
 * Accept-Language → the caller's most preferred language that we have (zh-TW/zh-HK/zh-Hant → zh-TW, other Chinese →
 * zh, ja*, fr*, ru*, vi*, en* → that language); Chinese, the product's default, when none is.
 */
export function pickLanguage(acceptLanguage: string | undefined): Language {
  return negotiateLanguage(acceptLanguageTags(acceptLanguage));
}
