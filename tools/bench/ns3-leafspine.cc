// SPDX-License-Identifier: GPL-2.0
/*
 * ns3-leafspine.cc - the speed reference of make bench: the topology of a
 * rdma-cc-sim leaf-spine scenario in ns-3 (Debian's ns3 3.37), without
 * congestion control: point-to-point links of the same rates and delays,
 * global routing with ECMP, and every flow of the simulator's workload
 * (--dump-flows) as a UDP source sending its bytes at the NIC's line rate.
 * Prints the data packets it sent, its wall and CPU time.
 *
 * usage: ns3-leafspine SPINES LEAVES HOSTS_PER_LEAF HOST_GBPS UPLINK_GBPS
 *                      PROP_NS MTU DURATION_US FLOWS_FILE
 * FLOWS_FILE: "SRC DST BYTES START_PS" per line, hosts numbered from 0.
 */
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

using namespace ns3;

static uint64_t g_tx;

static void count_tx(Ptr<const Packet>)
{
	g_tx++;
}

int main(int argc, char **argv)
{
	if (argc != 10) {
		std::cerr << "usage: ns3-leafspine SPINES LEAVES HOSTS_PER_LEAF "
			     "HOST_GBPS UPLINK_GBPS PROP_NS MTU DURATION_US FLOWS\n";
		return 2;
	}
	uint32_t sp = atoi(argv[1]), lf = atoi(argv[2]), hpl = atoi(argv[3]);
	double host_g = atof(argv[4]), up_g = atof(argv[5]);
	uint32_t prop_ns = atoi(argv[6]), mtu = atoi(argv[7]);
	double dur_us = atof(argv[8]);
	uint32_t nh = lf * hpl;

	Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting",
			   BooleanValue(true));
	NodeContainer spines, leaves, hosts;
	spines.Create(sp);
	leaves.Create(lf);
	hosts.Create(nh);
	InternetStackHelper stack;
	stack.InstallAll();

	PointToPointHelper hl, ul;
	char rate[64];
	snprintf(rate, sizeof(rate), "%.0fGbps", host_g);
	hl.SetDeviceAttribute("DataRate", StringValue(rate));
	hl.SetDeviceAttribute("Mtu", UintegerValue(mtu));
	hl.SetChannelAttribute("Delay", TimeValue(NanoSeconds(prop_ns)));
	hl.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize",
		    QueueSizeValue(QueueSize("1000p")));
	snprintf(rate, sizeof(rate), "%.0fGbps", up_g);
	ul.SetDeviceAttribute("DataRate", StringValue(rate));
	ul.SetDeviceAttribute("Mtu", UintegerValue(mtu));
	ul.SetChannelAttribute("Delay", TimeValue(NanoSeconds(prop_ns)));
	ul.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize",
		    QueueSizeValue(QueueSize("1000p")));

	Ipv4AddressHelper addr;
	TrafficControlHelper tch;
	std::vector<Ipv4Address> haddr(nh);
	uint32_t subnet = 0;
	auto assign = [&](NetDeviceContainer d) {
		char base[32];

		snprintf(base, sizeof(base), "10.%u.%u.0", subnet / 256,
			 subnet % 256);
		subnet++;
		addr.SetBase(base, "255.255.255.0");
		Ipv4InterfaceContainer ic = addr.Assign(d);
		tch.Uninstall(d);	/* the device queue only, no qdisc */
		return ic;
	};
	for (uint32_t l = 0; l < lf; l++) {
		for (uint32_t s = 0; s < sp; s++)
			assign(ul.Install(leaves.Get(l), spines.Get(s)));
		for (uint32_t h = 0; h < hpl; h++) {
			uint32_t id = l * hpl + h;
			Ipv4InterfaceContainer ic =
				assign(hl.Install(hosts.Get(id), leaves.Get(l)));
			haddr[id] = ic.GetAddress(0);
		}
	}
	Ipv4GlobalRoutingHelper::PopulateRoutingTables();

	std::ifstream in(argv[9]);
	uint32_t src, dst, port = 1000;
	uint64_t bytes, start_ps;
	uint32_t payload = mtu - 28;	/* IP and UDP headers */
	uint64_t nflows = 0;
	while (in >> src >> dst >> bytes >> start_ps) {
		if (src >= nh || dst >= nh)
			continue;
		OnOffHelper onoff("ns3::UdpSocketFactory",
				  InetSocketAddress(haddr[dst], port));
		onoff.SetConstantRate(DataRate((uint64_t)(host_g * 1e9)), payload);
		onoff.SetAttribute("MaxBytes", UintegerValue(bytes));
		ApplicationContainer a = onoff.Install(hosts.Get(src));
		a.Start(PicoSeconds(start_ps));
		a.Get(0)->TraceConnectWithoutContext("Tx", MakeCallback(&count_tx));
		PacketSinkHelper sink("ns3::UdpSocketFactory",
				      InetSocketAddress(Ipv4Address::GetAny(), port));
		sink.Install(hosts.Get(dst)).Start(PicoSeconds(0));
		port++;
		nflows++;
	}
	auto t0 = std::chrono::steady_clock::now();
	std::clock_t c0 = std::clock();
	Simulator::Stop(MicroSeconds(dur_us));
	Simulator::Run();
	double wall = std::chrono::duration<double>(
		std::chrono::steady_clock::now() - t0).count();
	double cpu = (double)(std::clock() - c0) / CLOCKS_PER_SEC;

	Simulator::Destroy();
	printf("ns-3: %llu flows, %llu packets, %.3f s wall, %.0f packets/s, %.3f s CPU, %.0f packets/CPU s\n",
	       (unsigned long long)nflows, (unsigned long long)g_tx, wall,
	       g_tx / wall, cpu, g_tx / cpu);
	return 0;
}
