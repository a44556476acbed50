import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PosSubmissionRequest, PosSubmissionResponse } from '@payments/contracts';
import { ApiEnvelopeErrors, ApiEnvelopeOk, ApiRequestBody, SuccessMessage } from '@payments/platform-envelope';
import { PosService } from './pos.service';

@ApiTags('pos')
@Controller('pos')
export class PosController {
  constructor(private readonly pos: PosService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Submit an encrypted card transaction from a terminal; no key headers' })
  @ApiRequestBody(PosSubmissionRequest)
  @ApiEnvelopeOk(PosSubmissionResponse)
  @ApiEnvelopeErrors(400, 404, 413, 422, 503)
  @SuccessMessage('Transaction received')
  submit(@Body() request: PosSubmissionRequest): Promise<PosSubmissionResponse> {
    return this.pos.submit(request);
  }
}
