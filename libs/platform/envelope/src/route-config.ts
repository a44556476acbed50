import { METHOD_METADATA } from '@nestjs/common/constants';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import type { FastifyRequest } from 'fastify';

/** What the platform's routes say about themselves, in their Fastify route config. */
export interface PlatformRouteConfig {
  /** The success envelope's message, or `false`: the handler answers something other than JSON. */
  envelope?: { message: string } | false;
  /** The route also reads HTML form posts (`application/x-www-form-urlencoded`); others answer them 415. */
  formPosts?: boolean;
  /** Which check the app runs on the route's requests before their body is read (a key, a rate limit). */
  admission?: string;
}

/**
 * Adds to the Fastify route config of one route, or of every route of a controller (where a
 * route's own setting wins). Nest's RouteConfig replaces the config instead, so a route could
 * not both answer raw HTML and take form posts.
 */
export function ExtendRouteConfig(config: PlatformRouteConfig): ClassDecorator & MethodDecorator {
  return ((target: object, _key?: string | symbol, descriptor?: PropertyDescriptor): void => {
    if (descriptor) {
      extend(descriptor.value as object, config);
      return;
    }
    const prototype = (target as { prototype: object }).prototype;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler: unknown = Object.getOwnPropertyDescriptor(prototype, name)?.value;
      if (typeof handler === 'function' && Reflect.hasMetadata(METHOD_METADATA, handler)) {
        extend(handler, { ...config, ...(Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as object) });
      }
    }
  }) as ClassDecorator & MethodDecorator;
}

function extend(handler: object, config: PlatformRouteConfig): void {
  const current = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as PlatformRouteConfig;
  Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...current, ...config }, handler);
}

/** The platform's part of the config of the route serving `request` (none for an unknown route). */
export function routeConfigOf(request: Pick<FastifyRequest, 'routeOptions'> | undefined): PlatformRouteConfig {
  return (request?.routeOptions?.config ?? {}) as PlatformRouteConfig;
}

/** The route also reads HTML form posts: a page's `<form method="post">` (the sandbox bank's 3-D Secure page). */
export const AcceptsFormPosts = () => ExtendRouteConfig({ formPosts: true });
