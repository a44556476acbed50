import { Body, Controller, Get, Logger, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ListDeliveriesQuery } from '@payments/contracts';
import { clientAddressKey } from '@payments/platform-bootstrap';
import { AcceptsFormPosts, apiError, DomainError, RawResponse } from '@payments/platform-envelope';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { WebhookServiceClient } from '../kafka-clients/webhook-service.client';
import { LimitedPerClientAddress } from '../rate-limits/client-address-limit.guard';
import { DashboardRequests, Form, page, redirect, shownTo, SignedIn } from './dashboard-requests';
import { MembersRepository } from './members.repository';
import { mayManageIntegration } from './roles';
import { validated } from './validated-query';
import { renderDelivery, renderDeliveryProblem, renderWebhooks } from './webhooks-html';

const deliveriesPerPage = 20;
/** A delivery id as the dispatcher makes them; anything else is not found, without asking. */
const deliveryIdShape = /^[A-Za-z0-9_-]{1,64}$/;
const integrationOnly = 'Only developers and owners can send webhooks. Ask one of them.';

/**
 * The business's webhook deliveries, through webhook-dispatcher's own commands as the API reads
 * them: every member sees them and each attempt; developers and owners send a delivery again or a
 * test event. Endpoints are listed without their signing secrets.
 */
@ApiExcludeController()
@Controller('dashboard/webhooks')
@LimitedPerClientAddress()
export class DashboardWebhooksController {
  private readonly logger = new Logger(DashboardWebhooksController.name);

  constructor(
    private readonly webhooks: WebhookServiceClient,
    private readonly members: MembersRepository,
    private readonly requests: DashboardRequests,
  ) {}

  @Get()
  @RawResponse()
  async list(
    @Req() request: FastifyRequest,
    @Query('status') status: unknown,
    @Query('page') pageNumber: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const signedIn = await this.requests.pageMember(request);
    if ('sendTo' in signedIn) return redirect(reply, signedIn.sendTo);
    const businessId = signedIn.member.business_id;
    const shown = {
      ...shownTo(signedIn),
      status: typeof status === 'string' ? status : '',
      manage: mayManageIntegration(signedIn.member.role),
    };
    const [endpoints, deliveries] = await Promise.allSettled([
      this.webhooks.send({ type: 'listEndpoints', businessId }),
      this.deliveries(businessId, status, pageNumber),
    ]);
    const failure = deliveries.status === 'rejected' ? domainError(deliveries.reason) : undefined;
    await page(
      reply,
      failure?.status ?? 200,
      renderWebhooks(
        {
          ...shown,
          endpoints: endpoints.status === 'fulfilled' ? endpoints.value.items : undefined,
          deliveries: deliveries.status === 'fulfilled' ? deliveries.value : undefined,
          problem: failure?.message,
        },
        this.requests.version,
      ),
    );
  }

  @Get('deliveries/:deliveryId')
  @RawResponse()
  async delivery(
    @Req() request: FastifyRequest,
    @Param('deliveryId') deliveryId: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const signedIn = await this.requests.pageMember(request);
    if ('sendTo' in signedIn) return redirect(reply, signedIn.sendTo);
    await this.deliveryPage(reply, signedIn, deliveryId);
  }

  @Post('deliveries/:deliveryId/replay')
  @RawResponse()
  @AcceptsFormPosts()
  async replay(
    @Req() request: FastifyRequest,
    @Param('deliveryId') deliveryId: string,
    @Body() form: Form,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const signedIn = await this.requests.changer(request, form);
    if (!signedIn) return redirect(reply, `/dashboard/webhooks/deliveries/${encodeURIComponent(deliveryId)}`);
    if (!mayManageIntegration(signedIn.member.role)) {
      const refused = { ...shownTo(signedIn), title: 'Not sent again' };
      return page(reply, 403, renderDeliveryProblem({ ...refused, problem: integrationOnly }, this.requests.version));
    }
    const businessId = signedIn.member.business_id;
    try {
      if (!deliveryIdShape.test(deliveryId)) throw apiError('DELIVERY_NOT_FOUND', `Delivery ${deliveryId} not found`);
      await this.record(signedIn, request, 'webhook.replay-requested', deliveryId);
      const replayed = await this.webhooks.send({ type: 'replayDelivery', businessId, deliveryId });
      await redirect(reply, `/dashboard/webhooks/deliveries/${encodeURIComponent(replayed.deliveryId)}`);
    } catch (error) {
      await this.deliveryPage(reply, signedIn, deliveryId, domainError(error));
    }
  }

  @Post('test')
  @RawResponse()
  @AcceptsFormPosts()
  async test(@Req() request: FastifyRequest, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    const signedIn = await this.requests.changer(request, form);
    if (!signedIn) return redirect(reply, '/dashboard/webhooks');
    const shown = { ...shownTo(signedIn), title: 'Test event not sent' };
    if (!mayManageIntegration(signedIn.member.role)) {
      return page(reply, 403, renderDeliveryProblem({ ...shown, problem: integrationOnly }, this.requests.version));
    }
    try {
      await this.record(signedIn, request, 'webhook.test-requested', 'the default endpoint');
      const sent = await this.webhooks.send({ type: 'sendTest', businessId: signedIn.member.business_id });
      await redirect(reply, `/dashboard/webhooks/deliveries/${encodeURIComponent(sent.deliveryId)}`);
    } catch (error) {
      const failure = domainError(error);
      await page(
        reply,
        failure.status,
        renderDeliveryProblem({ ...shown, problem: failure.message }, this.requests.version),
      );
    }
  }

  private async deliveries(businessId: string, status: unknown, pageNumber: unknown) {
    const query = validated(ListDeliveriesQuery, {
      ...(status === undefined || status === '' ? {} : { status }),
      ...(pageNumber === undefined || pageNumber === '' ? {} : { page: pageNumber }),
      limit: deliveriesPerPage,
    });
    return this.webhooks.send({ type: 'listDeliveries', businessId, query });
  }

  private async deliveryPage(
    reply: FastifyReply,
    signedIn: SignedIn,
    deliveryId: string,
    failure?: { status: number; message: string },
  ): Promise<void> {
    const shown = shownTo(signedIn);
    try {
      if (!deliveryIdShape.test(deliveryId)) throw apiError('DELIVERY_NOT_FOUND', `Delivery ${deliveryId} not found`);
      const delivery = await this.webhooks.send({
        type: 'getDelivery',
        businessId: signedIn.member.business_id,
        deliveryId,
      });
      const manage = mayManageIntegration(signedIn.member.role);
      const render = { ...shown, delivery, manage, problem: failure?.message };
      await page(reply, failure?.status ?? 200, renderDelivery(render, this.requests.version));
    } catch (error) {
      const { status, message } = domainError(error);
      const render = {
        ...shown,
        title: status === 503 ? 'Delivery cannot be read now' : 'Delivery not found',
        problem: message,
      };
      await page(reply, status, renderDeliveryProblem(render, this.requests.version));
    }
  }

  /** The audit entry of a request, before it is sent: one that cannot be recorded is not sent. */
  private async record(signedIn: SignedIn, request: FastifyRequest, action: string, subject: string): Promise<void> {
    try {
      await this.members.audit({
        businessId: signedIn.member.business_id,
        actorKind: 'member',
        actor: signedIn.member.email,
        action,
        subject,
        clientAddress: clientAddressKey(request.ip),
      });
    } catch (error) {
      this.logger.error({ err: error, action }, 'request not recorded; nothing was sent');
      throw new DomainError(
        'SERVICE_UNAVAILABLE',
        'The request could not be recorded, so nothing was sent. Try again.',
        503,
      );
    }
  }
}

/** A failure the page can show; anything else is a fault, thrown on to the platform's handler. */
function domainError(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  throw error;
}
