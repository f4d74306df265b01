/**
 * Names that credentials go by, in query strings and headers: the one list the redactor (which
 * masks `name=value` in URLs), the API client (which registers such query values) and the Logpush
 * destination rules (which decide what to mask and register) share. Pure data, no state.
 */

/** Query parameters and header names whose values are always secret, whatever their value. */
export const SECRET_PARAM =
  /^(.*token.*|.*key.*|.*secret.*|.*pass.*|.*pwd.*|sig|signature|sv|se|sp|sr|st|credential.*|code|sas|hmac.*|.*auth.*|.*bearer.*|.*jwt.*)$/i;
