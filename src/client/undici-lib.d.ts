// undici's own modules that src/client/undici-parts.ts imports one by one; undici types its index
// only, so these two are typed there (as the classes and functions the index exports)
declare module 'undici/lib/dispatcher/agent.js' {
  const Agent: unknown;
  export default Agent;
}
declare module 'undici/lib/api/api-request.js' {
  const request: unknown;
  export default request;
}
