import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'yaml';
import { backstageServices, parseDependencyAnnotation } from '../../../src/domain/backstage.ts';

// Backstage catalog entities as services (docs/services.md "From a Backstage catalog").

const docs = `
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: Checkout_API
  tags: [payments, Not A Tag]
  annotations:
    vendor-status/dependencies: "stripe:API|Dashboard,github"
    vendor-status/criticality: critical
spec:
  dependsOn: [resource:default/payments-db, component:unknown]
---
kind: Resource
metadata:
  name: payments-db
  annotations:
    vendor-status/dependencies: "amazon-web-services"
---
kind: System
metadata:
  name: web
spec:
  dependsOn: [resource:payments-db]
---
kind: Group
metadata:
  name: team
  annotations:
    vendor-status/dependencies: "github"
---
kind: Component
metadata:
  name: no-vendors
`
  .split('\n---\n')
  .map((d) => parse(d));

test('annotated entities and those depending on them become services; other kinds and plain entities do not', () => {
  const { file, entities } = backstageServices(docs);
  assert.deepEqual(entities, ['component:Checkout_API', 'resource:payments-db', 'system:web']);
  assert.deepEqual(file.services, [
    {
      name: 'checkout-api',
      criticality: 'critical',
      tags: ['payments'],
      dependencies: [{ vendor: 'stripe', components: ['API', 'Dashboard'] }, { vendor: 'github' }, { vendor: 'amazon-web-services' }],
    },
    { name: 'payments-db', tags: [], dependencies: [{ vendor: 'amazon-web-services' }] },
    { name: 'web', tags: [], dependencies: [{ vendor: 'amazon-web-services' }] },
  ]);
});

test('the annotation: vendors, components, a vendor named twice', () => {
  assert.deepEqual(parseDependencyAnnotation(' Stripe : API , github,stripe:Dashboard,, '), [
    { vendor: 'stripe', components: ['API', 'Dashboard'] },
    { vendor: 'github', components: [] },
  ]);
  assert.deepEqual(parseDependencyAnnotation('github:Actions,github'), [{ vendor: 'github', components: [] }]);
});
