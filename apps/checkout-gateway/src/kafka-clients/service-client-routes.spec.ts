import 'reflect-metadata';

import { Type } from '@nestjs/common';
import { MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DECORATORS } from '@nestjs/swagger';

import { gatewayApp } from '../app';
import { ServiceClient } from './service-client';

/**
 * The controllers of the partner API whose constructors take a backing service's client. The
 * dashboard's are left out of the API document: they answer pages, which say what is unavailable.
 */
function forwardingControllers(): Type[] {
  const controllers = gatewayApp.features
    .flatMap((feature) => (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, feature) ?? []) as Type[])
    .filter((controller) => !Reflect.getMetadata(DECORATORS.API_EXCLUDE_CONTROLLER, controller));
  return controllers.filter((controller) =>
    ((Reflect.getMetadata('design:paramtypes', controller) ?? []) as unknown[]).some(
      (dependency) => typeof dependency === 'function' && dependency.prototype instanceof ServiceClient,
    ),
  );
}

function routesOf(controller: Type): [string, object][] {
  const prototype = controller.prototype as Record<string, object>;
  return Object.getOwnPropertyNames(prototype)
    .filter((name) => name !== 'constructor' && Reflect.hasMetadata(PATH_METADATA, prototype[name]))
    .map((name) => [name, prototype[name]]);
}

describe('routes that call a backing service', () => {
  it('document 503, which they answer when the service does not answer in time', () => {
    const controllers = forwardingControllers();
    const undocumented = controllers.flatMap((controller) =>
      routesOf(controller)
        .filter(([, handler]) => !('503' in (Reflect.getMetadata(DECORATORS.API_RESPONSE, handler) ?? {})))
        .map(([name]) => `${controller.name}.${name}`),
    );
    expect(controllers.map((controller) => controller.name)).toEqual(
      expect.arrayContaining(['OutletsController', 'InternalTransfersController', 'WebhooksController']),
    );
    expect(undocumented).toEqual([]);
  });
});
