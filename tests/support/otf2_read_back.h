#pragma once

// Reading an OTF2 archive back through the reference library's reader API, for the export's
// round-trip tests: per location the Enter/Leave pairs and exclusive time of every region,
// whether the events nest and run forward in time, the messages (send and receive matched by
// communicator rank and tag), metrics, markers and the archive's properties.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <otf2/otf2.h>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace parallax::test {

struct Otf2ReadBack {
    bool opened = false;
    std::map<std::uint32_t, std::string> strings;
    std::map<std::uint32_t, std::string> regionNames; // region → name
    std::map<std::uint64_t, std::string> locationNames; // location → name
    std::map<std::uint64_t, std::uint64_t> locationEvents; // as the definition says
    // [location][region]
    std::map<std::uint64_t, std::map<std::uint32_t, std::uint64_t>> pairs;
    std::map<std::uint64_t, std::map<std::uint32_t, double>> exclusive;
    std::map<std::uint64_t, std::uint64_t> eventsRead; // per location
    std::size_t enterWithAttributes = 0;
    bool nested = true; // every Leave closes the innermost open region
    bool forward = true; // time never goes backwards on a location
    bool allClosed = true;
    std::size_t sends = 0;
    std::size_t receives = 0;
    std::set<std::tuple<std::uint64_t, std::uint64_t, std::uint32_t>> sendKeys; // from, to, tag
    std::set<std::tuple<std::uint64_t, std::uint64_t, std::uint32_t>> receiveKeys;
    std::size_t metrics = 0;
    std::size_t markers = 0;
    std::map<std::string, std::string> properties;

    struct Open {
        std::uint32_t region;
        std::uint64_t since; // start of the current exclusive stretch
    };
    std::map<std::uint64_t, std::vector<Open>> stack;
    std::map<std::uint64_t, std::uint64_t> lastTime;
    std::vector<std::uint64_t> rankLocations; // communicator rank → location (sorted locations)

    [[nodiscard]] std::string regionName(std::uint32_t region) const
    {
        const auto it = regionNames.find(region);
        return it == regionNames.end() ? std::string() : it->second;
    }
    [[nodiscard]] std::uint64_t pairsNamed(std::uint64_t location, const std::string& name) const
    {
        std::uint64_t n = 0;
        if (const auto it = pairs.find(location); it != pairs.end())
            for (const auto& [region, count] : it->second)
                if (regionName(region) == name)
                    n += count;
        return n;
    }
};

namespace otf2_detail {

inline void advance(Otf2ReadBack& r, std::uint64_t location, std::uint64_t time)
{
    auto& last = r.lastTime[location];
    if (time < last)
        r.forward = false;
    last = time;
    auto& open = r.stack[location];
    if (!open.empty()) {
        r.exclusive[location][open.back().region] += static_cast<double>(time - open.back().since);
        open.back().since = time;
    }
    ++r.eventsRead[location];
}

inline OTF2_CallbackCode onString(void* data, OTF2_StringRef self, const char* text)
{
    static_cast<Otf2ReadBack*>(data)->strings[self] = text;
    return OTF2_CALLBACK_SUCCESS;
}

inline OTF2_CallbackCode onLocation(void* data, OTF2_LocationRef self, OTF2_StringRef name,
    OTF2_LocationType, std::uint64_t events, OTF2_LocationGroupRef)
{
    auto& r = *static_cast<Otf2ReadBack*>(data);
    r.locationNames[self] = r.strings[name];
    r.locationEvents[self] = events;
    return OTF2_CALLBACK_SUCCESS;
}

inline OTF2_CallbackCode onRegion(void* data, OTF2_RegionRef self, OTF2_StringRef name,
    OTF2_StringRef, OTF2_StringRef, OTF2_RegionRole, OTF2_Paradigm, OTF2_RegionFlag, OTF2_StringRef,
    std::uint32_t, std::uint32_t)
{
    auto& r = *static_cast<Otf2ReadBack*>(data);
    r.regionNames[self] = r.strings[name];
    return OTF2_CALLBACK_SUCCESS;
}

inline OTF2_CallbackCode onEnter(OTF2_LocationRef location, OTF2_TimeStamp time, void* data,
    OTF2_AttributeList* attributes, OTF2_RegionRef region)
{
    auto& r = *static_cast<Otf2ReadBack*>(data);
    advance(r, location, time);
    r.stack[location].push_back({ region, time });
    if (attributes != nullptr && OTF2_AttributeList_GetNumberOfElements(attributes) > 0)
        ++r.enterWithAttributes;
    return OTF2_CALLBACK_SUCCESS;
}

inline OTF2_CallbackCode onLeave(OTF2_LocationRef location, OTF2_TimeStamp time, void* data,
    OTF2_AttributeList*, OTF2_RegionRef region)
{
    auto& r = *static_cast<Otf2ReadBack*>(data);
    advance(r, location, time);
    auto& open = r.stack[location];
    if (open.empty() || open.back().region != region) {
        r.nested = false;
        return OTF2_CALLBACK_SUCCESS;
    }
    open.pop_back();
    ++r.pairs[location][region];
    if (!open.empty())
        open.back().since = time;
    return OTF2_CALLBACK_SUCCESS;
}

inline OTF2_CallbackCode onSend(OTF2_LocationRef location, OTF2_TimeStamp time, void* data,
    OTF2_AttributeList*, std::uint32_t receiver, OTF2_CommRef, std::uint32_t tag, std::uint64_t)
{
    auto& r = *static_cast<Otf2ReadBack*>(data);
    advance(r, location, time);
    ++r.sends;
    const auto to = receiver < r.rankLocations.size() ? r.rankLocations[receiver] : ~0ULL;
    r.sendKeys.insert({ location, to, tag });
    return OTF2_CALLBACK_SUCCESS;
}

inline OTF2_CallbackCode onReceive(OTF2_LocationRef location, OTF2_TimeStamp time, void* data,
    OTF2_AttributeList*, std::uint32_t sender, OTF2_CommRef, std::uint32_t tag, std::uint64_t)
{
    auto& r = *static_cast<Otf2ReadBack*>(data);
    advance(r, location, time);
    ++r.receives;
    const auto from = sender < r.rankLocations.size() ? r.rankLocations[sender] : ~0ULL;
    r.receiveKeys.insert({ from, location, tag });
    return OTF2_CALLBACK_SUCCESS;
}

inline OTF2_CallbackCode onMetric(OTF2_LocationRef location, OTF2_TimeStamp time, void* data,
    OTF2_AttributeList*, OTF2_MetricRef, std::uint8_t, const OTF2_Type*, const OTF2_MetricValue*)
{
    auto& r = *static_cast<Otf2ReadBack*>(data);
    advance(r, location, time);
    ++r.metrics;
    return OTF2_CALLBACK_SUCCESS;
}

inline OTF2_CallbackCode onMarker(void* data, OTF2_TimeStamp, OTF2_TimeStamp, OTF2_MarkerRef,
    OTF2_MarkerScope, std::uint64_t, const char*)
{
    ++static_cast<Otf2ReadBack*>(data)->markers;
    return OTF2_CALLBACK_SUCCESS;
}

} // namespace otf2_detail

// Reads DIR/traces.otf2 completely.
inline Otf2ReadBack readOtf2(const std::string& directory)
{
    using namespace otf2_detail;
    Otf2ReadBack r;
    std::FILE* anchor = std::fopen((directory + "/traces.otf2").c_str(), "rb");
    if (anchor == nullptr)
        return r;
    std::fclose(anchor);
    OTF2_Reader* reader = OTF2_Reader_Open((directory + "/traces.otf2").c_str());
    if (reader == nullptr)
        return r;
    OTF2_Reader_SetSerialCollectiveCallbacks(reader);
    auto* defs = OTF2_Reader_GetGlobalDefReader(reader);
    auto* defCallbacks = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(defCallbacks, onString);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(defCallbacks, onLocation);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(defCallbacks, onRegion);
    OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, defCallbacks, &r);
    OTF2_GlobalDefReaderCallbacks_Delete(defCallbacks);
    std::uint64_t read = 0;
    OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &read);
    OTF2_Reader_CloseGlobalDefReader(reader, defs);
    for (const auto& [location, name] : r.locationNames) {
        OTF2_Reader_SelectLocation(reader, location);
        r.rankLocations.push_back(location); // the exporter ranks PEs in ascending order
    }
    OTF2_Reader_OpenDefFiles(reader);
    OTF2_Reader_OpenEvtFiles(reader);
    for (const auto& [location, name] : r.locationNames) {
        if (auto* local = OTF2_Reader_GetDefReader(reader, location)) {
            std::uint64_t n = 0;
            OTF2_Reader_ReadAllLocalDefinitions(reader, local, &n);
            OTF2_Reader_CloseDefReader(reader, local);
        }
        OTF2_Reader_GetEvtReader(reader, location);
    }
    OTF2_Reader_CloseDefFiles(reader);
    auto* events = OTF2_Reader_GetGlobalEvtReader(reader);
    auto* evtCallbacks = OTF2_GlobalEvtReaderCallbacks_New();
    OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(evtCallbacks, onEnter);
    OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(evtCallbacks, onLeave);
    OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(evtCallbacks, onSend);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(evtCallbacks, onReceive);
    OTF2_GlobalEvtReaderCallbacks_SetMetricCallback(evtCallbacks, onMetric);
    OTF2_Reader_RegisterGlobalEvtCallbacks(reader, events, evtCallbacks, &r);
    OTF2_GlobalEvtReaderCallbacks_Delete(evtCallbacks);
    OTF2_Reader_ReadAllGlobalEvents(reader, events, &read);
    OTF2_Reader_CloseGlobalEvtReader(reader, events);
    OTF2_Reader_CloseEvtFiles(reader);
    // The marker file is optional (written only when there are markers).
    std::FILE* markerFile = std::fopen((directory + "/traces.marker").c_str(), "rb");
    if (markerFile != nullptr)
        std::fclose(markerFile);
    if (auto* markers = markerFile != nullptr ? OTF2_Reader_GetMarkerReader(reader) : nullptr) {
        auto* markerCallbacks = OTF2_MarkerReaderCallbacks_New();
        OTF2_MarkerReaderCallbacks_SetMarkerCallback(markerCallbacks, onMarker);
        OTF2_Reader_RegisterMarkerCallbacks(reader, markers, markerCallbacks, &r);
        OTF2_MarkerReaderCallbacks_Delete(markerCallbacks);
        OTF2_Reader_ReadAllMarkers(reader, markers, &read);
        OTF2_Reader_CloseMarkerReader(reader, markers);
    }
    std::uint32_t count = 0;
    char** names = nullptr;
    if (OTF2_Reader_GetPropertyNames(reader, &count, &names) == OTF2_SUCCESS) {
        for (std::uint32_t k = 0; k < count; ++k) {
            char* value = nullptr;
            if (OTF2_Reader_GetProperty(reader, names[k], &value) == OTF2_SUCCESS) {
                r.properties[names[k]] = value;
                std::free(value);
            }
        }
        std::free(names);
    }
    OTF2_Reader_Close(reader);
    for (const auto& [location, open] : r.stack)
        if (!open.empty())
            r.allClosed = false;
    r.opened = true;
    return r;
}

} // namespace parallax::test
