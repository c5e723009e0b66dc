// Starts Swagger UI on /docs with this service's own contract. A file, not an inline script, so the page's CSP holds.
'use strict';
window.addEventListener('DOMContentLoaded', function () {
  var root = document.getElementById('swagger-ui');
  if (!root || typeof window.SwaggerUIBundle !== 'function') return;
  root.textContent = '';
  window.SwaggerUIBundle({
    url: root.getAttribute('data-spec') || '/openapi.json',
    domNode: root,
    deepLinking: false,
    validatorUrl: null,
    tryItOutEnabled: false,
    defaultModelsExpandDepth: 0,
    docExpansion: 'list',
  });
});
