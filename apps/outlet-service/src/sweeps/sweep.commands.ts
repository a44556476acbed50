import { Injectable } from '@nestjs/common';
import { OutletCommandHandlers } from '@payments/contracts';

import { SweepSettingsService } from './sweep-settings.service';

/** The gateway's sweep settings requests. */
@Injectable()
export class SweepCommands {
  constructor(private readonly settings: SweepSettingsService) {}

  readonly handlers: OutletCommandHandlers<'setSweepSettings'> = {
    setSweepSettings: (command) => this.settings.update(command.businessId, command.request),
  };
}
