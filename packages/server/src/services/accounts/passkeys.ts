import type {
  AuthenticationResponseJSON,
  AuthenticatorTransportFuture,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { StoredPasskey } from '../../db/repos/passkeys.js';
import type { UserRow } from '../../db/schema.js';
import { ApiFailure } from '../../http/envelope.js';
import { CEREMONY_TTL_SECONDS, type CeremonyKind, newCeremonyId, passkeyCeremonies } from './passkey-ceremonies.js';
import {
  aaguidToStandard,
  base64UrlToStandard,
  standardToBase64Url,
  userHandleOf,
  userIdOfHandle,
} from './passkey-codec.js';
import { relyingParty } from './passkey-party.js';

/** The WebAuthn library (about 8 MiB resident) is loaded on the first passkey ceremony, not at start. */
let library: Promise<typeof import('@simplewebauthn/server')> | null = null;
function webauthn(): Promise<typeof import('@simplewebauthn/server')> {
  library ??= import('@simplewebauthn/server');
  return library;
}

/** Holds the id of the caller's begun ceremony; only the passkey routes receive it. */
const CEREMONY_COOKIE = 'passkey_ceremony';
const COOKIE_PATH = '/api/user/passkey';

const descriptor = (passkey: StoredPasskey) => ({
  id: standardToBase64Url(passkey.credentialId),
  transports: passkey.transports as AuthenticatorTransportFuture[],
});

async function beginCeremony(
  ctx: AppContext,
  reply: FastifyReply,
  kind: CeremonyKind,
  userId: number | null,
  challenge: string,
): Promise<void> {
  const id = newCeremonyId();
  await passkeyCeremonies(ctx).save(id, { kind, challenge, userId });
  reply.setCookie(CEREMONY_COOKIE, id, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.config.sessionCookieSecure,
    maxAge: CEREMONY_TTL_SECONDS,
  });
}

/** The challenge of the caller's begun ceremony, used up: a second finish with it finds nothing. */
async function takeChallenge(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: CeremonyKind,
  userId: number | null,
): Promise<string> {
  const id = request.cookies[CEREMONY_COOKIE];
  reply.clearCookie(CEREMONY_COOKIE, { path: COOKIE_PATH });
  const ceremony = id ? await passkeyCeremonies(ctx).take(id) : null;
  if (!ceremony || ceremony.kind !== kind || ceremony.userId !== userId)
    throw new ApiFailure('passkey_challenge_expired');
  return ceremony.challenge;
}

export function assertPasskeysEnabled(ctx: AppContext): void {
  if (!ctx.options.bool('passkey.enabled')) throw new ApiFailure('passkey_disabled');
}

/** Creation options for one more passkey of `user` (its existing ones excluded, so one device is not added twice). */
export async function beginRegistration(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, user: UserRow) {
  const party = relyingParty(ctx, request);
  const existing = await ctx.repos.passkeys.listByUser(user.id);
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: party.name,
    rpID: party.id,
    userName: user.username,
    userDisplayName: user.display_name || user.username,
    userID: userHandleOf(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map(descriptor),
    authenticatorSelection: {
      // Discoverable, so "sign in with a passkey" needs no username first.
      residentKey: 'required',
      requireResidentKey: true,
      userVerification: party.userVerification,
      authenticatorAttachment: party.attachment,
    },
  });
  await beginCeremony(ctx, reply, 'register', user.id, options.challenge);
  return options;
}

export async function finishRegistration(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  response: RegistrationResponseJSON,
  name: string,
): Promise<void> {
  const challenge = await takeChallenge(ctx, request, reply, 'register', user.id);
  const party = relyingParty(ctx, request);
  const { verifyRegistrationResponse } = await webauthn();
  const result = await verifyRegistrationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: party.origins,
    expectedRPID: party.id,
    requireUserVerification: party.userVerification === 'required',
  }).catch((err: unknown) => {
    request.log.info({ err }, 'passkey registration refused');
    return null;
  });
  if (!result?.verified) throw new ApiFailure('passkey_verification_failed');
  const { credential, aaguid, userVerified, credentialBackedUp, credentialDeviceType } = result.registrationInfo;
  const credentialId = base64UrlToStandard(credential.id);
  if (await ctx.repos.passkeys.findByCredentialId(credentialId)) throw new ApiFailure('passkey_verification_failed');
  await ctx.repos.passkeys.insert({
    userId: user.id,
    credentialId,
    publicKey: Buffer.from(credential.publicKey).toString('base64'),
    signCount: credential.counter,
    transports: credential.transports ?? [],
    attachment: response.authenticatorAttachment ?? '',
    attestationType: 'none',
    aaguid: aaguidToStandard(aaguid),
    userVerified,
    backupEligible: credentialDeviceType === 'multiDevice',
    backupState: credentialBackedUp,
    name,
  });
}

/** Request options for an assertion: by any of `user`'s passkeys, or (user null: sign-in) by any discoverable one. */
export async function beginAssertion(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow | null,
) {
  const party = relyingParty(ctx, request);
  const passkeys = user ? await ctx.repos.passkeys.listByUser(user.id) : [];
  if (user && !passkeys.length) throw new ApiFailure('passkey_not_registered');
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID: party.id,
    userVerification: party.userVerification,
    allowCredentials: passkeys.map(descriptor),
  });
  await beginCeremony(ctx, reply, user ? 'verify' : 'login', user?.id ?? null, options.challenge);
  return options;
}

/**
 * Checks an assertion against the caller's begun ceremony and the stored passkey: the passkey must belong to the
 * signed-in user (verify) and to the user its handle names, its signature must verify and its counter move on.
 * Answers the passkey whose use was recorded.
 */
export async function finishAssertion(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow | null,
  response: AuthenticationResponseJSON,
): Promise<StoredPasskey> {
  const challenge = await takeChallenge(ctx, request, reply, user ? 'verify' : 'login', user?.id ?? null);
  const party = relyingParty(ctx, request);
  const id = typeof response?.id === 'string' ? response.id : '';
  const passkey = id ? await ctx.repos.passkeys.findByCredentialId(base64UrlToStandard(id)) : null;
  const handle = response?.response?.userHandle;
  const refused =
    !passkey ||
    (user !== null && passkey.userId !== user.id) ||
    (typeof handle === 'string' && handle !== '' && userIdOfHandle(handle) !== passkey.userId);
  if (refused || !passkey) throw new ApiFailure('passkey_verification_failed');
  const { verifyAuthenticationResponse } = await webauthn();
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: party.origins,
    expectedRPID: party.id,
    credential: {
      id: standardToBase64Url(passkey.credentialId),
      publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64')),
      counter: passkey.signCount,
      transports: passkey.transports as AuthenticatorTransportFuture[],
    },
    requireUserVerification: party.userVerification === 'required',
  }).catch((err: unknown) => {
    request.log.info({ err }, 'passkey assertion refused');
    return null;
  });
  if (!result?.verified) throw new ApiFailure('passkey_verification_failed');
  const { newCounter, credentialBackedUp } = result.authenticationInfo;
  if (!(await ctx.repos.passkeys.recordUse(passkey, newCounter, credentialBackedUp))) {
    throw new ApiFailure('passkey_verification_failed');
  }
  return passkey;
}
