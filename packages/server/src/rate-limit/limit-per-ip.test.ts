import { expect, it } from 'vitest'
import { ipBucket } from './limit-per-ip.ts'

it('counts IPv4 by address, IPv4-mapped IPv6 as IPv4', () => {
  expect(ipBucket('203.0.113.9')).toBe('203.0.113.9')
  expect(ipBucket('::ffff:203.0.113.9')).toBe('203.0.113.9')
})

it('counts IPv6 by its /64, whatever the spelling', () => {
  const bucket = '2001:db8:1:2::/64'
  for (const ip of [
    '2001:db8:1:2::1',
    '2001:DB8:0001:0002:ffff:ffff:ffff:ffff',
    '2001:db8:1:2:a::b',
  ])
    expect(ipBucket(ip)).toBe(bucket)
  expect(ipBucket('2001:db8:1:3::1')).not.toBe(bucket)
  expect(ipBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
  expect(ipBucket('1::2:3:4:5:192.0.2.1')).toBe('1:0:2:3::/64')
})

it('an unknown or unparsable IP is a bucket of its own', () => {
  expect(ipBucket(undefined)).toBe('unknown')
  expect(ipBucket('not-an-ip')).toBe('not-an-ip')
})
