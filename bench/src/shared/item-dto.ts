/**
 * The class-validator model of POST /items, used by Tern (requestModel / @Body()) and by both
 * NestJS servers (ValidationPipe). Fastify's JSON schema (item-schema.ts) and the hand-written
 * checks of node:http and Express (item-check.ts) encode the same rules.
 *
 *   name   string, 1..200 chars
 *   price  number >= 0
 *   tags   array (max 20) of strings of 1..50 chars
 *   owner  object { name: string 1..100, email: e-mail address }
 *   lines  array (1..100) of { sku: /^[A-Z0-9-]+$/ 1..64 chars, qty: integer >= 1 }
 * Unknown properties are dropped everywhere.
 */
import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  Length,
  Matches,
  Min,
  ValidateNested,
} from 'class-validator';

export class OwnerDto {
  @IsString()
  @Length(1, 100)
  name: string;

  @IsEmail()
  email: string;
}

export class LineDto {
  @IsString()
  @Length(1, 64)
  @Matches(/^[A-Z0-9-]+$/)
  sku: string;

  @IsInt()
  @Min(1)
  qty: number;
}

export class ItemDto {
  @IsString()
  @Length(1, 200)
  name: string;

  @IsNumber()
  @Min(0)
  price: number;

  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Length(1, 50, { each: true })
  tags: string[];

  @IsObject()
  @ValidateNested()
  @Type(() => OwnerDto)
  owner: OwnerDto;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => LineDto)
  lines: LineDto[];
}
