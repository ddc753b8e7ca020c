// The docs page's initializer (served at /docs/assets/swagger-initializer.js): a file rather than an inline
// script, so a Content-Security-Policy without 'unsafe-inline' allows the page. The document is the area's
// own /openapi.json (relative, so the page works behind a path prefix too); no validator badge, which would
// send the document to an outside service. The tags start folded: the registry has about 200 operations, and
// Swagger UI rendering them all at once stalls the page.
window.addEventListener('load', () => {
  const { SwaggerUIBundle } = window;
  window.ui = SwaggerUIBundle({
    url: new window.URL('openapi.json', window.location.href).href,
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'none',
    filter: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
