<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="village_tiles" tilewidth="32" tileheight="32" tilecount="89" columns="8">
 <image source="village_tiles.png" width="256" height="384"/>
 <tile id="0">
  <properties>
   <property name="name" value="grass"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="name" value="grass_2"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="name" value="grass_3"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="name" value="path"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="4">
  <properties>
   <property name="name" value="cobble"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="5">
  <properties>
   <property name="name" value="sand"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="6">
  <properties>
   <property name="name" value="wood_floor"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="7">
  <properties>
   <property name="name" value="dock"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="8">
  <properties>
   <property name="name" value="bridge"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="9">
  <properties>
   <property name="name" value="bridge_n"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="10">
  <properties>
   <property name="name" value="bridge_s"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="11">
  <properties>
   <property name="name" value="flowers_red"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="12">
  <properties>
   <property name="name" value="flowers_yellow"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="13">
  <properties>
   <property name="name" value="flowers_blue"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="14">
  <properties>
   <property name="name" value="mushrooms"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="15">
  <properties>
   <property name="name" value="water"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="16">
  <properties>
   <property name="name" value="water_n"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="17">
  <properties>
   <property name="name" value="water_s"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="18">
  <properties>
   <property name="name" value="water_w"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="19">
  <properties>
   <property name="name" value="water_e"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="20">
  <properties>
   <property name="name" value="water_nw"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="21">
  <properties>
   <property name="name" value="water_ne"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="22">
  <properties>
   <property name="name" value="water_sw"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="23">
  <properties>
   <property name="name" value="water_se"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="24">
  <properties>
   <property name="name" value="water_corner_nw"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="25">
  <properties>
   <property name="name" value="water_corner_ne"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="26">
  <properties>
   <property name="name" value="water_corner_sw"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="27">
  <properties>
   <property name="name" value="water_corner_se"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="28">
  <properties>
   <property name="name" value="water_lily"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="29">
  <properties>
   <property name="name" value="tree"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="30">
  <properties>
   <property name="name" value="pine"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="31">
  <properties>
   <property name="name" value="bush"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="32">
  <properties>
   <property name="name" value="rock"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="33">
  <properties>
   <property name="name" value="stump"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="34">
  <properties>
   <property name="name" value="fence_h"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="35">
  <properties>
   <property name="name" value="fence_v"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="36">
  <properties>
   <property name="name" value="fence_end_l"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="37">
  <properties>
   <property name="name" value="fence_end_r"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="38">
  <properties>
   <property name="name" value="fence_nw"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="39">
  <properties>
   <property name="name" value="fence_ne"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="40">
  <properties>
   <property name="name" value="fence_sw"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="41">
  <properties>
   <property name="name" value="fence_se"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="42">
  <properties>
   <property name="name" value="well"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="43">
  <properties>
   <property name="name" value="anvil"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="44">
  <properties>
   <property name="name" value="forge"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="45">
  <properties>
   <property name="name" value="oven"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="46">
  <properties>
   <property name="name" value="bread_stall"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="47">
  <properties>
   <property name="name" value="market_stall"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="48">
  <properties>
   <property name="name" value="cloth_stall"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="49">
  <properties>
   <property name="name" value="crate"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="50">
  <properties>
   <property name="name" value="barrel"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="51">
  <properties>
   <property name="name" value="sign"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="52">
  <properties>
   <property name="name" value="boat"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="53">
  <properties>
   <property name="lamp" type="bool" value="true"/>
   <property name="name" value="lamp"/>
   <property name="radius" type="float" value="4"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="54">
  <properties>
   <property name="name" value="hay_bale"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="55">
  <properties>
   <property name="name" value="sacks"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="56">
  <properties>
   <property name="name" value="log_pile"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="57">
  <properties>
   <property name="name" value="bench"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="58">
  <properties>
   <property name="name" value="flower_pot"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="59">
  <properties>
   <property name="name" value="cart"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="60">
  <properties>
   <property name="name" value="pumpkins"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="61">
  <properties>
   <property name="name" value="bucket"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="62">
  <properties>
   <property name="name" value="fish_basket"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="63">
  <properties>
   <property name="name" value="cabbages"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="64">
  <properties>
   <property name="name" value="tall_grass"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="65">
  <properties>
   <property name="name" value="reeds"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="66">
  <properties>
   <property name="name" value="table"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="67">
  <properties>
   <property name="name" value="wall"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="68">
  <properties>
   <property name="name" value="wall_window"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="69">
  <properties>
   <property name="name" value="wall_door"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="70">
  <properties>
   <property name="name" value="wall_stone"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="71">
  <properties>
   <property name="name" value="wall_stone_window"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="72">
  <properties>
   <property name="name" value="wall_stone_door"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="73">
  <properties>
   <property name="name" value="roof_red_top_l"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="74">
  <properties>
   <property name="name" value="roof_red_top_m"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="75">
  <properties>
   <property name="name" value="roof_red_top_r"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="76">
  <properties>
   <property name="name" value="roof_red_l"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="77">
  <properties>
   <property name="name" value="roof_red_m"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="78">
  <properties>
   <property name="name" value="roof_red_r"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="79">
  <properties>
   <property name="name" value="roof_red_chimney"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="80">
  <properties>
   <property name="name" value="roof_slate_top_l"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="81">
  <properties>
   <property name="name" value="roof_slate_top_m"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="82">
  <properties>
   <property name="name" value="roof_slate_top_r"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="83">
  <properties>
   <property name="name" value="roof_slate_l"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="84">
  <properties>
   <property name="name" value="roof_slate_m"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="85">
  <properties>
   <property name="name" value="roof_slate_r"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="86">
  <properties>
   <property name="name" value="roof_slate_chimney"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="87">
  <properties>
   <property name="name" value="collision"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="88">
  <properties>
   <property name="name" value="notice_board"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
</tileset>
