#!/usr/bin/perl
# A request/response client in Perl (IO::Socket::INET, from perl-base), for
# matrices/byo_example.yaml: COUNT requests of SIZE bytes over TCP, each
# answered with RESPONSE bytes; prints the mean round trip in microseconds.
use strict;
use warnings;
use IO::Socket::INET;
use Socket qw(IPPROTO_TCP TCP_NODELAY);
use Time::HiRes qw(clock_gettime CLOCK_MONOTONIC);

my ($host, $port, $size, $response, $count) = @ARGV;
my $s = IO::Socket::INET->new(PeerAddr => $host, PeerPort => $port, Proto => 'tcp')
    or die "connect $host:$port: $!\n";
setsockopt($s, IPPROTO_TCP, TCP_NODELAY, 1);
my $request = join '', map { chr($_ * 31 % 256) } 0 .. $size - 1;
my $total = 0;
for (1 .. $count) {
    my $t0 = clock_gettime(CLOCK_MONOTONIC);
    my $off = 0;
    while ($off < $size) {
        my $n = syswrite($s, $request, $size - $off, $off) // die "write: $!\n";
        $off += $n;
    }
    my ($got, $buf) = (0, '');
    while ($got < $response) {
        my $n = sysread($s, $buf, $response - $got, $got) // die "read: $!\n";
        die "server closed the connection\n" unless $n;
        $got += $n;
    }
    $total += clock_gettime(CLOCK_MONOTONIC) - $t0;
}
printf "perl client: %d requests, avg rtt %.3f us\n", $count, $total / $count * 1e6;
